import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { VisitBatch } from './visit-batch';
import type { BatchOutcome } from './visit-sink';
import { ThreadVisitSink } from './visit-thread';

/**
 * ThreadVisitSink against stand-in threads (plain scripts written for each test) that speak the
 * writer thread's protocol: what the sink does when a thread answers, logs, fails to start, or
 * dies with a write outstanding.
 */
const dir = mkdtempSync(join(tmpdir(), 'visit-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let scripts = 0;
function script(body: string): string {
  const path = join(dir, `thread-${(scripts += 1)}.js`);
  writeFileSync(
    path,
    `const { parentPort, workerData } = require('node:worker_threads');\n${body}\n`,
  );
  return path;
}

/** Answers each write with every visit written, after a log line; exits on close. */
const ANSWERING = `
parentPort.postMessage({ type: 'ready' });
parentPort.on('message', (m) => {
  if (m.type === 'close') return parentPort.close();
  const count = m.batch.linkIds.length;
  parentPort.postMessage({ type: 'log', level: 'warn', message: 'writing ' + count + ' for ' + workerData.config.appUrl });
  const perLink = new Map();
  for (const id of m.batch.linkIds) perLink.set(id, (perLink.get(id) ?? 0) + 1);
  parentPort.postMessage({ type: 'done', id: m.id, outcome: {
    done: count, written: count, dropped: 0, released: [...perLink],
    limitedLinks: [], limitsReached: 0 } });
});`;

const data = {
  config: { appUrl: 'https://links.test' } as AppConfig,
  secret: new Uint8Array(32),
  lock: null,
};

function visits(...linkIds: number[]): VisitBatch {
  return VisitBatch.of(
    linkIds.map((linkId) => ({
      linkId,
      at: Date.UTC(2026, 10, 26),
      ip: '203.0.113.9',
      userAgent: 'Mozilla/5.0',
      referer: undefined,
      acceptLanguage: undefined,
      query: null,
      kind: 0,
      qrCodeId: 0,
    })),
  );
}

describe(ThreadVisitSink.name, () => {
  let sink: ThreadVisitSink | null = null;
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    await sink?.close();
    sink = null;
    jest.restoreAllMocks();
  });

  it('hands a batch to the thread and returns what the thread wrote, its log lines forwarded', async () => {
    sink = new ThreadVisitSink(data, script(ANSWERING));
    const outcome = await sink.write(visits(1, 2, 1));
    expect(outcome).toEqual<BatchOutcome>({
      done: 3,
      written: 3,
      dropped: 0,
      released: [
        [1, 2],
        [2, 1],
      ],
      limitedLinks: [],
      limitsReached: 0,
    });
    expect(warn).toHaveBeenCalledWith('writing 3 for https://links.test');
    // One thread serves every write.
    await sink.write(visits(3));
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('fails the write when the thread cannot start, and starts a new one for a later write', async () => {
    const flag = join(dir, 'started-once');
    sink = new ThreadVisitSink(
      data,
      script(`
const fs = require('node:fs');
if (!fs.existsSync(${JSON.stringify(flag)})) {
  fs.writeFileSync(${JSON.stringify(flag)}, '1');
  parentPort.postMessage({ type: 'failed', error: 'database unreachable' });
} else {
  ${ANSWERING}
}`),
      0,
    );
    await expect(sink.write(visits(1))).rejects.toThrow(
      'the visit writer thread failed to start: database unreachable',
    );
    expect((await sink.write(visits(1))).written).toBe(1);
  });

  it('waits before starting again after a failed start', async () => {
    sink = new ThreadVisitSink(
      data,
      script(`parentPort.postMessage({ type: 'failed', error: 'no database' });`),
      60_000,
    );
    await expect(sink.write(visits(1))).rejects.toThrow('failed to start: no database');
    await expect(sink.write(visits(1))).rejects.toThrow('retrying soon');
  });

  it('fails an outstanding write when the thread dies, and writes again in a new thread', async () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const flag = join(dir, 'died-once');
    sink = new ThreadVisitSink(
      data,
      script(`
const fs = require('node:fs');
parentPort.postMessage({ type: 'ready' });
if (!fs.existsSync(${JSON.stringify(flag)})) {
  parentPort.on('message', () => {
    fs.writeFileSync(${JSON.stringify(flag)}, '1');
    process.exit(3);
  });
} else {
  parentPort.removeAllListeners('message');
  ${ANSWERING.replace("parentPort.postMessage({ type: 'ready' });", '')}
}`),
      0,
    );
    await expect(sink.write(visits(1, 2))).rejects.toThrow(
      'the visit writer thread exited (code 3)',
    );
    expect((await sink.write(visits(1, 2))).written).toBe(2);
    expect(error).not.toHaveBeenCalled();
  });

  it('closes the thread: it is told to close and exits', async () => {
    const closed = join(dir, 'closed');
    sink = new ThreadVisitSink(
      data,
      script(`
${ANSWERING}
parentPort.on('message', (m) => { if (m.type === 'close') require('node:fs').writeFileSync(${JSON.stringify(closed)}, 'yes'); });`),
    );
    await sink.write(visits(1));
    await sink.close();
    expect(readFileSync(closed, 'utf8')).toBe('yes');
  });
});
