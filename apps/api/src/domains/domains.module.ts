import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { DnsTxtResolver } from './dns-txt.resolver';
import { DomainVerifier } from './domain-verifier';
import { DomainsController } from './domains.controller';
import { DomainsService } from './domains.service';

/** Lookups give up after about 2 × 2.5 s, well within a client's request timeout. */
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
