import { Module, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { AnalyticsModule } from '@app/analytics';
import { deriveKey, SECRETS_KEY } from '@app/config';
import { ServerDrain } from '../../server-drain';
import { EdgeCache } from './edge-cache.service';
import { EDGE_SECRET } from './edge-secret';
import { EdgeService } from './edge.service';
import { StaticFiles } from './edge-static';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The visitor edge. Once the app is built it puts EdgeService in front of the HTTP server's
 * request listener (Express, with Nest inside): requests the edge does not claim go on to it.
 */
@Module({
  imports: [AnalyticsModule],
  providers: [
    EdgeCache,
    EdgeService,
    StaticFiles,
    ServerDrain,
    {
      provide: EDGE_SECRET,
      inject: [SECRETS_KEY],
      useFactory: (key: Buffer) => deriveKey(key, 'edge cookies and visitor hashes'),
    },
  ],
  exports: [EdgeCache, AnalyticsModule],
})
export class EdgeModule implements OnApplicationBootstrap {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly edge: EdgeService,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    const listeners = server.listeners('request') as RequestListener[];
    if (listeners.length !== 1) {
      throw new Error(`Expected one request listener (Express), found ${listeners.length}`);
    }
    const [next] = listeners;
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      let claimed: boolean;
      try {
        claimed = this.edge.handle(req, res, next);
      } catch (error) {
        // A fault in the edge must not take the process down with it.
        this.edge.fail(res, error);
        return;
      }
      if (!claimed) {
        next(req, res);
      }
    });
  }
}
