import type { Server } from 'node:http';
import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { VISITS_FLUSHED, VisitRecorder, type VisitsFlushedEvent } from '@app/analytics';
import { isMetricsBearer, serveMetricsPort, writeMetrics } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { DeliveriesRepository } from '@app/database';
import { DeliveryResults, registerOutboxMetrics } from '@app/notifications';
import { CachingObjectStore, ObjectStore } from '@app/storage';
import { VisitorCache } from '../visitor/cache/visitor-cache.service';
import { Served } from '../visitor/served';

/** Seconds: from a fast JSON answer to a slow upload. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const FLUSH_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * The process's Prometheus metrics. Counters of hot paths are plain integers kept by their owners
 * (VisitRecorder, VisitorCache, CachingObjectStore, Served, DeliveryResults) and copied into the registry when it
 * is scraped, so serving a redirect allocates nothing for metrics.
 */
@Injectable()
export class MetricsService implements OnModuleInit, OnApplicationShutdown {
  readonly registry = new Registry();
  private readonly http: Histogram<'method' | 'route' | 'status'>;
  private readonly flushSeconds: Histogram;
  private server: Server | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly recorder: VisitRecorder,
    private readonly cache: VisitorCache,
    private readonly store: ObjectStore,
    private readonly deliveries: DeliveriesRepository,
    results: DeliveryResults,
    private readonly served: Served,
  ) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.http = new Histogram({
      name: 'linkdock_http_request_duration_seconds',
      help: 'API requests (not visitor redirects) by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.flushSeconds = new Histogram({
      name: 'linkdock_visit_flush_duration_seconds',
      help: 'Time of one flush of buffered visits to the database',
      buckets: FLUSH_BUCKETS,
      registers,
    });
    copied(
      registers,
      'linkdock_redirects_total',
      'Redirects served to visitors',
      () => this.served.redirects,
    );
    copied(
      registers,
      'linkdock_visits_buffered_total',
      'Visits counted and buffered',
      () => this.recorder.counted,
    );
    copied(
      registers,
      'linkdock_visits_written_total',
      'Visits written to the database',
      () => this.recorder.written,
    );
    copied(
      registers,
      'linkdock_visits_dropped_total',
      'Visits refused by the database (not retried)',
      () => this.recorder.dropped,
    );
    copied(
      registers,
      'linkdock_visits_overflowed_total',
      'Visits dropped unwritten from a full buffer (the database did not keep up)',
      () => this.recorder.overflowed,
    );
    copied(
      registers,
      'linkdock_link_cache_hits_total',
      'Visitor link lookups answered by the cache',
      () => this.cache.hits,
    );
    copied(
      registers,
      'linkdock_link_cache_misses_total',
      'Visitor link lookups that went to the database',
      () => this.cache.misses,
    );
    registerOutboxMetrics(registers, () => this.deliveries.backlog(), results);
    const objects = this.store instanceof CachingObjectStore ? this.store : null;
    if (objects !== null) {
      copied(
        registers,
        'linkdock_object_cache_hits_total',
        'Stored files served from memory',
        () => objects.stats.hits,
      );
      copied(
        registers,
        'linkdock_object_cache_misses_total',
        'Stored files read from the object store',
        () => objects.stats.misses,
      );
      new Gauge({
        name: 'linkdock_object_cache_bytes',
        help: 'Bytes of stored files kept in memory',
        registers,
        collect() {
          this.set(objects.snapshot().bytes);
        },
      });
    }
  }

  async onModuleInit(): Promise<void> {
    const { port, token } = this.config.metrics;
    if (port !== null) {
      this.server = await serveMetricsPort(this.registry, { port, host: this.config.host, token });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server !== null) {
      await new Promise<void>((done) => server.close(() => done()));
    }
  }

  @OnEvent(VISITS_FLUSHED)
  observeFlush(event: VisitsFlushedEvent): void {
    this.flushSeconds.observe(event.seconds);
  }

  /** Times API requests by the route template Express matched ("unmatched" for a 404). */
  readonly timeRequests = (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const route = req.route
        ? `${req.baseUrl}${(req.route as { path: string }).path}`
        : 'unmatched';
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.http.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
    });
    next();
  };

  /**
   * GET /metrics on the main port: only with METRICS_TOKEN, as `Authorization: Bearer <token>`
   * (401 without it). Unset, the path is not served there (404, as any unknown path).
   */
  readonly answerMainPort = (req: Request, res: Response, next: NextFunction): void => {
    const token = this.config.metrics.token;
    if (token === null || (req.method !== 'GET' && req.method !== 'HEAD') || req.path !== '/') {
      next();
      return;
    }
    if (!isMetricsBearer(req.headers.authorization, token)) {
      res
        .status(401)
        .set('WWW-Authenticate', 'Bearer realm="metrics"')
        .json({
          errors: [
            {
              status: 401,
              title: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.',
              code: 'unauthorized',
            },
          ],
        });
      return;
    }
    void writeMetrics(this.registry, res);
  };
}

/** A counter whose value is read from its owner at scrape time. */
function copied(registers: Registry[], name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers,
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}
