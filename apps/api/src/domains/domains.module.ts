import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { DnsTxtResolver } from './dns-txt.resolver';
import { DomainVerifier } from './domain-verifier';
import { DomainsController } from './domains.controller';
import { DomainsService } from './domains.service';

/** Two tries per server, from 2.5 s each: a dead server fails the request within seconds. */
const DNS_TIMEOUT_MS = 2500;
const DNS_TRIES = 2;

@Module({
  controllers: [DomainsController],
  providers: [
    DomainsService,
    DomainVerifier,
    {
      provide: DnsTxtResolver,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new DnsTxtResolver({
          servers: config.dnsServers,
          timeoutMs: DNS_TIMEOUT_MS,
          tries: DNS_TRIES,
        }),
    },
  ],
  exports: [DomainsService],
})
export class DomainsModule {}
