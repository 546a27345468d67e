import type { Server } from 'node:http';
import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { serveMetricsPort } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { DeliveriesRepository } from '@app/database';
import { DeliveryResults, registerOutboxMetrics } from '@app/notifications';

/**
 * The worker process's metrics on METRICS_PORT (unset: none): the outbox's backlog, the delivery
 * attempts of its dispatcher and the process metrics. The API serves its own.
 */
@Injectable()
export class WorkerMetrics implements OnModuleInit, OnApplicationShutdown {
  readonly registry = new Registry();
  private server: Server | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    deliveries: DeliveriesRepository,
    results: DeliveryResults,
  ) {
    collectDefaultMetrics({ register: this.registry });
    registerOutboxMetrics([this.registry], () => deliveries.backlog(), results);
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
}
