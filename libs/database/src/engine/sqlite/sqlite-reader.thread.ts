import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { prepared } from './sqlite-connection';
import type { FromReader, ReaderData, ToReader } from './sqlite-reader';

/**
 * The SQLite reader thread (see SqliteReader): a read-only connection of its own to the database
 * file, which runs the statements it is sent one at a time and posts their rows back. Reads in WAL
 * mode never wait for the writers; the busy timeout only covers the moment a checkpoint restarts
 * the log.
 */
const data = workerData as ReaderData;
const port = parentPort;
if (!port) throw new Error('sqlite-reader.thread runs as a worker thread');

const db = new Database(data.path, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');

port.on('message', (message: ToReader) => {
  if (message.type === 'close') {
    db.close();
    port.close();
    return;
  }
  let reply: FromReader;
  try {
    const statement = prepared(db, message.sql);
    if (!statement.reader)
      throw new TypeError('The SQLite reader runs only statements that return rows');
    reply = { id: message.id, rows: statement.all(...message.parameters) };
  } catch (error) {
    const { message: text, code } = error as { message?: unknown; code?: unknown };
    reply = {
      id: message.id,
      error: { message: String(text ?? error), code: typeof code === 'string' ? code : undefined },
    };
  }
  port.postMessage(reply);
});
