import { Module } from '@nestjs/common';
import { DNS_TIMEOUT_MS, DNS_TRIES, DnsTxtResolver } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { DomainVerifier } from './domain-verifier';
import { DomainsController } from './domains.controller';
import { DomainsService } from './domains.service';

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
})
export class DomainsModule {}
