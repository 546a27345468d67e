import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Module, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { AnalyticsModule } from '@app/analytics';
import { deriveKey, SECRETS_KEY } from '@app/config';
import { VisitorCache } from './cache/visitor-cache.service';
import { ClicksLimitGate } from './gates/clicks-limit.gate';
import { PasswordGate } from './gates/password.gate';
import { PreviewGate } from './gates/preview.gate';
import { ScheduleGate } from './gates/schedule.gate';
import { SensitiveGate } from './gates/sensitive.gate';
import { SplashGate } from './gates/splash.gate';
import { TargetingGate } from './gates/targeting.gate';
import { fail } from './http';
import { BioForms } from './pages/bio-forms.service';
import { BioPageResponder } from './pages/bio-page-responder';
import { BioPages } from './pages/bio-pages.service';
import { SlotCache } from './pages/slot-cache.service';
import { VisitorRouter } from './router';
import { Served } from './served';
import { ServerDrain } from './server-drain';
import { SiteServer } from './static/site-server';
import { StaticFiles } from './static/static-files';
import type { RequestListener } from './visit';
import { VisitCounter } from './visit-counter';
import { VisitorListener } from './visitor-listener';
import { VISITOR_SECRET } from './visitor-secret';

/**
 * The visitor side. Once the app is built it puts VisitorListener in front of the HTTP server's
 * request listener (Express, with Nest inside): requests it does not claim go on to Express.
 */
@Module({
  imports: [AnalyticsModule],
  providers: [
    VisitorCache,
    VisitorListener,
    VisitorRouter,
    ScheduleGate,
    ClicksLimitGate,
    PasswordGate,
    PreviewGate,
    SensitiveGate,
    TargetingGate,
    SplashGate,
    VisitCounter,
    SiteServer,
    StaticFiles,
    BioPages,
    BioForms,
    BioPageResponder,
    SlotCache,
    ServerDrain,
    Served,
    {
      provide: VISITOR_SECRET,
      inject: [SECRETS_KEY],
      // The label is part of the key: a new one would void every password cookie and visitor hash.
      useFactory: (key: Buffer) => deriveKey(key, 'edge cookies and visitor hashes'),
    },
  ],
  exports: [VisitorCache, Served, AnalyticsModule],
})
export class VisitorModule implements OnApplicationBootstrap {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly listener: VisitorListener,
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
        claimed = this.listener.handle(req, res, next);
      } catch (error) {
        // A fault in the visitor side must not take the process down with it.
        fail(res, error);
        return;
      }
      if (!claimed) {
        next(req, res);
      }
    });
  }
}
