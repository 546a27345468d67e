import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnModuleDestroy,
  OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { createHmac } from 'node:crypto';
import type { Server } from 'node:http';
import { isDataError } from '@app/common';
import type { NewVisit } from '@app/database';
import { REDIS } from '@app/redis';
import type Redis from 'ioredis';
import { countByLink, VisitWriter } from './visit-writer';
import { VisitorInfo } from './visitor-info';

/** Injection token of the key that keys visitor hashes. */
export const VISITOR_HASH_SECRET = Symbol('VISITOR_HASH_SECRET');

/** What the edge keeps of a counted redirect; everything else is derived at flush time. */
export interface RawVisit {
  linkId: number;
  at: number;
  ip: string;
  userAgent: string;
  referer: string | undefined;
  acceptLanguage: string | undefined;
  /** The request's query string without `?`, or null. */
  query: string | null;
}

export const FLUSH_INTERVAL_MS = 250;
/** A batch this large is flushed at once instead of waiting for the timer. */
export const FLUSH_BATCH = 2000;
/** Visits per transaction: small enough that writing one batch holds redirects up ~1 ms. */
export const WRITE_BATCH = 250;
const BUSY_WAIT_LIMIT = 1000;
/** Beyond this, while the database refuses writes, the oldest visits are dropped (and logged). */
const MAX_BUFFERED = 1_000_000;
const UNIQUE_TTL_SECONDS = 26 * 3600;
const LOCAL_UNIQUE_LIMIT = 2_000_000;
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Buffers counted visits in memory and writes them in batches, one transaction per flush, off the
 * redirect's path. On shutdown it stops the HTTP server first, then writes everything it holds, so
 * every counted redirect becomes a row.
 */
@Injectable()
export class VisitRecorder implements OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(VisitRecorder.name);
  private buffer: RawVisit[] = [];
  private readonly pending = new Map<number, number>();
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private uniqueDay = '';
  private readonly seenToday = new Set<string>();
  /** Redirects counted by this process since start, and visits it wrote. */
  counted = 0;
  written = 0;
  /** Visits the database refused as data (see write()); not retried. */
  dropped = 0;

  constructor(
    private readonly visits: VisitWriter,
    private readonly info: VisitorInfo,
    private readonly adapterHost: HttpAdapterHost,
    @Inject(VISITOR_HASH_SECRET) private readonly secret: Buffer,
    @Inject(REDIS) private readonly redis: Redis | null,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stopServer();
    await this.flushAll();
    this.logger.log(
      `Visits: ${this.counted} counted, ${this.written} written, ${this.buffer.length} not written` +
        (this.dropped > 0 ? `, ${this.dropped} refused by the database` : ''),
    );
  }

  record(visit: RawVisit): void {
    if (this.buffer.length >= MAX_BUFFERED) {
      const dropped = this.buffer.shift();
      if (dropped) this.release(dropped.linkId, 1);
      this.logger.error('The visit buffer is full: the database is not accepting writes');
    }
    this.buffer.push(visit);
    this.counted += 1;
    this.pending.set(visit.linkId, (this.pending.get(visit.linkId) ?? 0) + 1);
    if (this.buffer.length >= FLUSH_BATCH && !this.flushing) {
      void this.flush();
    }
  }

  /** Counted visits of a link that are not in the database yet. */
  unflushed(linkId: number): number {
    return this.pending.get(linkId) ?? 0;
  }

  /**
   * Writes what is buffered now, in batches of WRITE_BATCH visits, one transaction each, yielding
   * to the event loop between batches so that redirects are not held up. Waits for a flush that is
   * already running. Never throws: a failed batch goes back to the buffer for the next flush.
   */
  async flush(): Promise<void> {
    while (this.flushing) {
      await this.flushing;
    }
    if (this.buffer.length === 0) {
      return;
    }
    const taken = this.buffer;
    this.buffer = [];
    this.flushing = this.writeAll(taken).finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  /** Flushes until the buffer is empty (or a write fails). */
  async flushAll(): Promise<void> {
    let before = -1;
    while (this.buffer.length > 0 && this.buffer.length !== before) {
      before = this.buffer.length;
      await this.flush();
    }
    while (this.flushing) {
      await this.flushing;
    }
  }

  private async writeAll(taken: RawVisit[]): Promise<void> {
    for (let i = 0; i < taken.length; i += WRITE_BATCH) {
      const batch = taken.slice(i, i + WRITE_BATCH);
      const done = await this.write(batch);
      if (done < batch.length) {
        this.buffer = taken.slice(i + done).concat(this.buffer);
        return;
      }
      await yieldToEventLoop();
    }
  }

  /**
   * Writes one batch in one transaction. Returns how many of its visits are done with (written,
   * or dropped as data the database refuses); the rest go back to the buffer for the next flush.
   * A visit the database refuses as data would be refused again on every retry, so when a batch
   * fails that way its visits are written one at a time and only the refused ones are dropped:
   * one bad visit must not hold up all the others behind it.
   */
  private async write(batch: RawVisit[]): Promise<number> {
    let rows: NewVisit[] = [];
    try {
      if (!this.info.geoReady()) {
        await this.info.loadGeo();
      }
      rows = await this.enrich(batch);
      await this.store(rows);
      return batch.length;
    } catch (error) {
      if (rows.length !== batch.length || !isDataError(error)) {
        this.logger.error(`Writing ${batch.length} visits failed; will retry: ${String(error)}`);
        return 0;
      }
      this.logger.warn(`Writing ${batch.length} visits failed (${String(error)}); one at a time`);
    }
    for (let j = 0; j < rows.length; j += 1) {
      try {
        await this.store([rows[j]]);
      } catch (error) {
        if (!isDataError(error)) {
          this.logger.error(`Writing visits failed; will retry: ${String(error)}`);
          return j;
        }
        this.dropped += 1;
        this.release(rows[j].link_id, 1);
        this.logger.error(
          `A visit of link ${rows[j].link_id} was refused and dropped: ${String(error)}`,
        );
      }
    }
    return batch.length;
  }

  private async store(rows: NewVisit[]): Promise<void> {
    // An API transaction in progress holds SQLite's one connection: do not join it.
    for (let waited = 0; this.visits.isBusy() && waited < BUSY_WAIT_LIMIT; waited += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    this.written += await this.visits.recordBatch(rows);
    for (const [linkId, count] of countByLink(rows)) {
      this.release(linkId, count);
    }
  }

  private release(linkId: number, count: number): void {
    const left = (this.pending.get(linkId) ?? 0) - count;
    if (left > 0) this.pending.set(linkId, left);
    else this.pending.delete(linkId);
  }

  private async enrich(batch: RawVisit[]): Promise<NewVisit[]> {
    const rows: NewVisit[] = [];
    for (const v of batch) {
      const device = this.info.device(v.userAgent);
      const geo = this.info.geo(v.ip);
      const referrer = parseReferrer(v.referer);
      const utm = parseUtm(v.query);
      const at = new Date(v.at);
      const day = at.toISOString().slice(0, 10);
      rows.push({
        link_id: v.linkId,
        datetime: at,
        referrer_host: referrer.host,
        referrer_path: referrer.path,
        utm_source: utm.source,
        utm_medium: utm.medium,
        utm_campaign: utm.campaign,
        continent_code: geo.continent_code,
        country_code: geo.country_code,
        city_name: geo.city_name,
        os_name: device.os_name,
        browser_name: device.browser_name,
        device_type: device.device_type,
        browser_language: this.info.language(v.acceptLanguage),
        is_unique: false,
        visitor_hash: createHmac('sha256', this.secret)
          .update(`${day}|${v.linkId}|${v.ip}|${v.userAgent}`)
          .digest('hex')
          .slice(0, 32),
      });
    }
    await this.markUnique(rows);
    return rows;
  }

  /**
   * A visit is unique when its visitor hash (per day, link, IP and user agent) was not seen
   * before today: in Redis when configured (so all instances agree), else in this process.
   */
  private async markUnique(rows: NewVisit[]): Promise<void> {
    if (this.redis && this.redis.status === 'ready') {
      try {
        const pipeline = this.redis.pipeline();
        for (const row of rows) {
          pipeline.set(`linkdock:uv:${row.visitor_hash}`, '1', 'EX', UNIQUE_TTL_SECONDS, 'NX');
        }
        const results = (await pipeline.exec()) ?? [];
        rows.forEach((row, i) => {
          row.is_unique = results[i]?.[1] === 'OK';
        });
        return;
      } catch (error) {
        this.logger.warn(
          `Unique-visitor check in Redis failed, using this process: ${String(error)}`,
        );
      }
    }
    for (const row of rows) {
      const day = row.datetime.toISOString().slice(0, 10);
      if (day !== this.uniqueDay) {
        this.uniqueDay = day;
        this.seenToday.clear();
      }
      if (this.seenToday.size >= LOCAL_UNIQUE_LIMIT) {
        this.seenToday.clear();
      }
      row.is_unique = !this.seenToday.has(row.visitor_hash);
      this.seenToday.add(row.visitor_hash);
    }
  }

  /** Stops accepting connections and waits for requests in flight, so their visits are counted. */
  private async stopServer(): Promise<void> {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server || !server.listening) {
      return;
    }
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      force.unref();
      server.close(() => {
        clearTimeout(force);
        resolve();
      });
      server.closeIdleConnections();
    });
  }
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function parseReferrer(referer: string | undefined): { host: string | null; path: string | null } {
  if (!referer) {
    return { host: null, path: null };
  }
  try {
    const url = new URL(referer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return { host: null, path: null };
    }
    return { host: url.hostname.slice(0, 253), path: url.pathname.slice(0, 512) };
  } catch {
    return { host: null, path: null };
  }
}

/**
 * Text from a visitor's URL as stored: control characters removed, trimmed, at most `max` UTF-16
 * units without splitting a character in two, and no lone surrogate (PostgreSQL refuses NUL, and
 * stores a half character as U+FFFD, which would make two different values one).
 */
export function visitText(value: string | null | undefined, max: number): string | null {
  if (!value) {
    return null;
  }
  // eslint-disable-next-line no-control-regex
  let text = value.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (text.length > max) {
    text = text.slice(0, /[\ud800-\udbff]/.test(text[max - 1]) ? max - 1 : max);
  }
  text = text.replace(LONE_SURROGATE, '\ufffd');
  return text === '' ? null : text;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function parseUtm(query: string | null): {
  source: string | null;
  medium: string | null;
  campaign: string | null;
} {
  if (!query || !query.includes('utm_')) {
    return { source: null, medium: null, campaign: null };
  }
  const params = new URLSearchParams(query);
  const read = (name: string): string | null => visitText(params.get(name), 128);
  return { source: read('utm_source'), medium: read('utm_medium'), campaign: read('utm_campaign') };
}
