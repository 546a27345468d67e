import type { Server } from 'node:http';
import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

const SHUTDOWN_GRACE_MS = 10_000;

/**
 * On shutdown, stops accepting connections and waits for requests in flight, so their visits are
 * counted before the visit recorder writes out what it holds. Nest runs the shutdown hooks of a
 * module before those of the modules it imports: provide this in a module that imports
 * AnalyticsModule (the visitor edge), and it runs before the recorder drains.
 */
@Injectable()
export class ServerDrain implements BeforeApplicationShutdown {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  async beforeApplicationShutdown(): Promise<void> {
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
