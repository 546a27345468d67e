import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Logger, type LoggerService } from '@nestjs/common';
import type Redis from 'ioredis';
// Each from its own file, not the libraries' indexes, so that the thread loads only what it uses.
import { AppDataSource, buildDataSourceOptions } from '@app/database/data-source';
import { Db } from '@app/database/engine/db';
import { SqliteWriteLock } from '@app/database/engine/sqlite/sqlite-write-lock';
import { closeRedisClient, createRedisClient } from '@app/redis/redis.module';
import { UniqueVisitors } from './unique-visitors';
import { VisitBatch } from './visit-batch';
import { VisitEnricher } from './visit-enricher';
import { type BatchOutcome, emptyOutcome, InlineVisitSink, THREAD_WRITE_BATCH } from './visit-sink';
import type { FromThread, ToThread, VisitThreadData } from './visit-thread';
import { VisitWriter } from './visit-writer';
import { VisitorInfo } from './visitor-info';

/**
 * The thread's nice value (Linux schedules threads one by one): when the CPU is short, redirects
 * go first and the visits wait in memory until there is time to write them.
 */
const NICE = 5;

/** Lowers this thread's priority; where the system does not allow it, the thread runs as it is. */
function lowerPriority(): string | null {
  try {
    // /proc/thread-self is this thread's entry in /proc: its last part is the thread's id.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    setPriority(tid, NICE);
    return null;
  } catch (error) {
    return String(error);
  }
}

/**
 * The visit writer thread (started by ThreadVisitSink): enrichment, uniqueness, the visits, their
 * roll-ups and the links' clicks, written through a database connection of its own. One write at a
 * time, in the order they arrive.
 */
async function run(port: NonNullable<typeof parentPort>, data: VisitThreadData): Promise<void> {
  const send = (message: FromThread): void => port.postMessage(message);
  const forward =
    (level: 'log' | 'warn' | 'error') =>
    (message: unknown): void =>
      send({ type: 'log', level, message: String(message) });
  const logger: LoggerService = {
    log: forward('log'),
    warn: forward('warn'),
    error: forward('error'),
  };
  Logger.overrideLogger(logger);
  const notLowered = lowerPriority();
  if (notLowered !== null) {
    send({ type: 'log', level: 'log', message: `Runs at normal priority: ${notLowered}` });
  }

  let dataSource: AppDataSource | null = null;
  let redis: Redis | null = null;
  try {
    const options = buildDataSourceOptions(data.config.database);
    dataSource = new AppDataSource(
      options.type === 'postgres'
        ? {
            ...options,
            extra: { ...(options.extra as object), max: 2, application_name: 'linkdock visits' },
          }
        : options,
    );
    await dataSource.initialize();
    // The main thread's client reports Redis outages; this one would repeat them.
    redis = data.config.redisUrl ? createRedisClient(data.config.redisUrl, false) : null;
    const writer = new VisitWriter(new Db(dataSource), data.config);
    writer.writeLock = data.lock ? new SqliteWriteLock(data.lock) : null;
    const enricher = new VisitEnricher(
      new VisitorInfo(() => Promise.resolve(data.geo)),
      Buffer.from(data.secret),
      new UniqueVisitors(redis),
    );
    const sink = new InlineVisitSink(enricher, writer, false, THREAD_WRITE_BATCH);
    const writeOrNothing = (batch: VisitBatch): Promise<BatchOutcome> =>
      sink.write(batch).catch((error: unknown) => {
        send({ type: 'log', level: 'error', message: `Writing visits failed: ${String(error)}` });
        return emptyOutcome();
      });

    let queue = Promise.resolve();
    port.on('message', (message: ToThread) => {
      queue = queue.then(async () => {
        if (message.type === 'write') {
          send({
            type: 'done',
            id: message.id,
            outcome: await writeOrNothing(VisitBatch.fromData(message.batch)),
          });
        } else {
          await dataSource?.destroy();
          if (redis) await closeRedisClient(redis);
          port.close();
        }
      });
    });
    send({ type: 'ready' });
  } catch (error) {
    send({ type: 'failed', error: String(error) });
    await dataSource?.destroy().catch(() => undefined);
    redis?.disconnect();
  }
}

if (!isMainThread && parentPort) {
  void run(parentPort, workerData as VisitThreadData);
}
