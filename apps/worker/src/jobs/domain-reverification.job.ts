import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import {
  Clock,
  DAY_MS,
  DNS_TIMEOUT_MS,
  DNS_TRIES,
  DnsTxtResolver,
  DOMAIN_CHANGED,
  type DomainChangedEvent,
  type TxtLookup,
  verificationName,
  verificationValue,
} from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { DomainEntity, DomainsRepository } from '@app/database';
import { domainPayload } from '@app/notifications';
import type { Job } from '../job';

/** Checks in a row without the record that disable a domain. */
export const MISSES_TO_DISABLE = 3;
const BATCH = 100;

function found(lookup: TxtLookup): string {
  if ('found' in lookup) return 'other TXT records only';
  return lookup.failure === 'nxdomain' ? 'no such name (NXDOMAIN)' : `no record (${lookup.code})`;
}

/**
 * Once a day, looks up the verification TXT record of every enabled, verified custom domain. A
 * domain whose record is missing on 3 checks in a row is disabled (its links stop answering on
 * it) and `domain.disabled` says why; a check that finds the record resets the count. A DNS
 * failure on our side (timeout, SERVFAIL) is not counted as a miss.
 */
@Injectable()
export class DomainReverificationJob implements Job {
  readonly name = 'domain-reverification';
  readonly firstDelayMs = 60_000;
  readonly everyMs = DAY_MS;
  readonly offBecause = null;
  private readonly logger = new Logger(DomainReverificationJob.name);
  private readonly resolver: DnsTxtResolver;

  constructor(
    private readonly domains: DomainsRepository,
    private readonly clock: Clock,
    private readonly emitter: EventEmitter2,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.resolver = new DnsTxtResolver({
      servers: config.dnsServers,
      timeoutMs: DNS_TIMEOUT_MS,
      tries: DNS_TRIES,
    });
  }

  async run(signal: AbortSignal): Promise<void> {
    await this.check(signal);
  }

  /** One pass over every domain; returns how many were disabled. */
  async check(signal?: AbortSignal): Promise<number> {
    let disabled = 0;
    let after = 0;
    for (;;) {
      const batch = await this.domains.verifiedEnabled(after, BATCH);
      for (const domain of batch) {
        if (signal?.aborted) return disabled;
        after = domain.id;
        if (await this.checkOne(domain)) disabled += 1;
      }
      if (batch.length < BATCH) return disabled;
    }
  }

  private async checkOne(domain: DomainEntity): Promise<boolean> {
    const name = verificationName(domain.host);
    const expected = verificationValue(domain.verification_token);
    const lookup = await this.resolver.lookup(name);
    if ('found' in lookup && lookup.found.includes(expected)) {
      if ((domain.verification_misses ?? 0) > 0) {
        await this.domains.setVerificationMisses(domain.id, 0);
      }
      return false;
    }
    if ('failure' in lookup && (lookup.failure === 'timeout' || lookup.failure === 'error')) {
      return false;
    }
    const misses = (domain.verification_misses ?? 0) + 1;
    if (misses < MISSES_TO_DISABLE) {
      await this.domains.setVerificationMisses(domain.id, misses);
      return false;
    }
    const now = this.clock.now();
    const reason = `The TXT record ${name} with the value ${expected} was not found on ${misses} daily checks in a row (last check: ${found(lookup)}). Publish it again and verify the domain to enable it.`;
    domain.is_enabled = false;
    domain.verified_datetime = null;
    domain.verification_misses = misses;
    domain.last_datetime = now;
    await this.domains.saveRaising(domain, {
      now,
      of: (rows) =>
        rows.map((d) => ({
          event: 'domain.disabled',
          ownerId: d.user_id,
          data: { ...domainPayload(d), reason },
        })),
    });
    this.emitter.emit(DOMAIN_CHANGED, {
      domainId: domain.id,
      host: domain.host,
    } satisfies DomainChangedEvent);
    this.logger.warn(`Domain ${domain.host} (${domain.id}) disabled: ${reason}`);
    return true;
  }
}
