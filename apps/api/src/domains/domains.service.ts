import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Actor } from '@app/auth';
import { PlanLimits } from '@app/billing';
import {
  AppError,
  Clock,
  DOMAIN_CHANGED,
  DomainChangedEvent,
  ListQuery,
  NotFoundError,
  Paginated,
  translateDatabaseError,
} from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { Db, DomainEntity, DomainsRepository, type RowEvents } from '@app/database';
import { DomainVerifier } from './domain-verifier';
import { DomainResponse, toDomainResponse } from './domain.mapper';
import { CreateDomainDto } from './dto/create-domain.dto';
import { UpdateDomainDto } from './dto/update-domain.dto';
import { hostProblem, normaliseHost, verificationName, verificationValue } from './host';

@Injectable()
export class DomainsService {
  private readonly ownHost: string;

  constructor(
    private readonly db: Db,
    private readonly limits: PlanLimits,
    private readonly domains: DomainsRepository,
    private readonly verifier: DomainVerifier,
    private readonly events: EventEmitter2,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'appUrl'>,
  ) {
    this.ownHost = new URL(config.appUrl).hostname.toLowerCase();
  }

  async list(actor: Actor, query: ListQuery): Promise<Paginated<DomainResponse>> {
    return (await this.domains.listOwned(actor.ownerId, query)).map(toDomainResponse);
  }

  async get(actor: Actor, id: number): Promise<DomainResponse> {
    return toDomainResponse(await this.findOwned(actor, id));
  }

  /** New domains start disabled, with a fresh verification token. */
  async create(actor: Actor, dto: CreateDomainDto): Promise<{ id: number }> {
    checkNoLoop(dto.host, dto.custom_index_url ?? '', dto.custom_not_found_url ?? '');
    await this.checkHostAvailable(actor, dto.host);
    const id = await this.db.write(async () => {
      await this.limits.check(actor.ownerId, { domains: 1 });
      return this.domains.insert({
        user_id: actor.ownerId,
        scheme: dto.scheme ?? 'https://',
        host: dto.host,
        custom_index_url: dto.custom_index_url ?? '',
        custom_not_found_url: dto.custom_not_found_url ?? '',
        is_enabled: false,
        verification_token: newToken(),
        verified_datetime: null,
        datetime: this.clock.now(),
        last_datetime: null,
      });
    });
    this.changed({ domainId: id, host: dto.host });
    return { id };
  }

  /**
   * A new host disables the domain and needs a new verification. `is_enabled=1` only re-enables a
   * domain whose current host was verified.
   */
  async update(actor: Actor, id: number, dto: UpdateDomainDto): Promise<{ id: number }> {
    const domain = await this.findOwned(actor, id);
    const previousHost = domain.host;
    const newHost = dto.host !== undefined && dto.host !== domain.host ? dto.host : null;
    const hostChanged = newHost !== null;
    if (newHost !== null) {
      await this.checkHostAvailable(actor, newHost);
      domain.host = newHost;
      domain.is_enabled = false;
      domain.verified_datetime = null;
      domain.verification_token = newToken();
    }
    if (dto.is_enabled === false) {
      domain.is_enabled = false;
    } else if (dto.is_enabled === true && !domain.is_enabled) {
      if (domain.verified_datetime === null) {
        throw this.notVerified(domain, hostChanged);
      }
      await this.checkNotEnabledElsewhere(domain, 'is_enabled');
      domain.is_enabled = true;
    }
    domain.scheme = dto.scheme ?? domain.scheme;
    domain.custom_index_url = dto.custom_index_url ?? domain.custom_index_url;
    domain.custom_not_found_url = dto.custom_not_found_url ?? domain.custom_not_found_url;
    checkNoLoop(domain.host, domain.custom_index_url, domain.custom_not_found_url);
    domain.last_datetime = this.clock.now();
    await this.saveEnabling(domain, 'is_enabled');
    this.changed({ domainId: id, host: domain.host, ...(hostChanged ? { previousHost } : {}) });
    return { id };
  }

  /** Looks up the TXT record; when it carries the token, the domain is verified and enabled. */
  async verify(actor: Actor, id: number): Promise<DomainResponse> {
    const domain = await this.findOwned(actor, id);
    await this.checkNotEnabledElsewhere(domain);
    await this.verifier.verify(domain.host, domain.verification_token);
    const now = this.clock.now();
    const newlyVerified = domain.verified_datetime === null;
    domain.is_enabled = true;
    domain.verified_datetime = now;
    domain.last_datetime = now;
    // domain.verified when the domain becomes verified, not on a re-check of a verified one.
    await this.saveEnabling(
      domain,
      undefined,
      newlyVerified
        ? {
            now,
            of: (rows) =>
              rows.map((d) => ({
                event: 'domain.verified',
                ownerId: actor.ownerId,
                data: { ...toDomainResponse(d) },
              })),
          }
        : undefined,
    );
    this.changed({ domainId: id, host: domain.host });
    return toDomainResponse(domain);
  }

  /** The domain's links are deleted with it (DomainsRepository.deleteOwned, one transaction). */
  async remove(actor: Actor, id: number): Promise<{ id: number }> {
    const domain = await this.findOwned(actor, id);
    if (!(await this.domains.deleteOwned(actor.ownerId, id))) {
      throw new NotFoundError('domain_not_found', 'domain');
    }
    this.changed({ domainId: id, host: domain.host });
    return { id };
  }

  /** Whether Caddy may get a certificate for this host: only for an enabled custom domain. */
  async tlsCheck(raw: string | undefined): Promise<{ domain: string }> {
    if (raw === undefined || raw.trim() === '') {
      throw new AppError('validation_failed', 'domain is required.', 'domain');
    }
    const host = normaliseHost(raw);
    if (hostProblem(host) !== null || !(await this.domains.findEnabledByHost(host))) {
      throw new NotFoundError('domain_not_found', 'domain');
    }
    return { domain: host };
  }

  private async checkHostAvailable(actor: Actor, host: string): Promise<void> {
    if (host === this.ownHost) {
      throw new AppError(
        'validation_failed',
        `host ${host} is the address of this Linkdock server itself; add a domain of your own.`,
        'host',
      );
    }
    const rows = await this.domains.findByHost(host);
    if (rows.some((row) => row.user_id === actor.ownerId)) {
      throw new AppError('already_exists', `You already have the domain ${host}.`, 'host');
    }
  }

  private async checkNotEnabledElsewhere(domain: DomainEntity, field?: string): Promise<void> {
    const rows = await this.domains.findByHost(domain.host);
    if (rows.some((row) => row.id !== domain.id && row.is_enabled)) {
      throw this.hostInUse(domain, field);
    }
  }

  private hostInUse(domain: DomainEntity, field?: string): AppError {
    return new AppError(
      'domain_host_in_use',
      `The domain ${domain.host} is already enabled by another account; it can be enabled for only one.`,
      field,
    );
  }

  /**
   * Saves a domain that may have been enabled. The checks above are read-then-write; when another
   * account enabled the same host in between, the partial unique index on enabled hosts refuses
   * the row, and the caller hears the same 400 as without the race.
   */
  private async saveEnabling(
    domain: DomainEntity,
    field?: string,
    events?: RowEvents<DomainEntity>,
  ): Promise<void> {
    try {
      await (events ? this.domains.saveRaising(domain, events) : this.domains.save(domain));
    } catch (error) {
      if (domain.is_enabled && translateDatabaseError(error)?.code === 'already_exists') {
        throw this.hostInUse(domain, field);
      }
      throw error;
    }
  }

  private notVerified(domain: DomainEntity, hostChanged: boolean): AppError {
    const why = hostChanged ? 'The new host must be verified' : 'The domain must be verified';
    return new AppError(
      'domain_not_verified',
      `${why} before it can be enabled: publish a TXT record at ${verificationName(domain.host)} ` +
        `with the value ${verificationValue(domain.verification_token)}, then send ` +
        `POST /v1/domains/${domain.id}/verify.`,
      'is_enabled',
    );
  }

  private changed(event: DomainChangedEvent): void {
    this.events.emit(DOMAIN_CHANGED, event);
  }

  private async findOwned(actor: Actor, id: number): Promise<DomainEntity> {
    const domain = await this.domains.findOwned(actor.ownerId, id);
    if (!domain) {
      throw new NotFoundError('domain_not_found', 'domain');
    }
    return domain;
  }
}

function newToken(): string {
  return randomBytes(16).toString('hex');
}

/** An index or not-found URL on the domain itself would send its visitors round in a loop. */
function checkNoLoop(host: string, indexUrl: string, notFoundUrl: string): void {
  const problems = (
    [
      ['custom_index_url', indexUrl],
      ['custom_not_found_url', notFoundUrl],
    ] as const
  )
    .filter(
      ([, url]) => url !== '' && new URL(url).hostname.toLowerCase().replace(/\.$/, '') === host,
    )
    .map(([field]) => ({
      title: `${field} must not point at the domain itself (${host}): visitors would loop.`,
      field,
    }));
  if (problems.length > 0) {
    throw new AppError('validation_failed', problems);
  }
}
