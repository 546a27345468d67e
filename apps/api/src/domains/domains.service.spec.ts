import { EventEmitter2 } from '@nestjs/event-emitter';
import { QueryFailedError } from 'typeorm';
import { Actor } from '@app/auth';
import { Clock, DOMAIN_CHANGED, ErrorEntry, ListQuery, Paginated } from '@app/common';
import { DnsTxtResolver, type TxtLookup } from '@app/common';
import {
  DomainEntity,
  DomainsRepository,
  type OutboxEventInput,
  type RowEvents,
} from '@app/database';
import { rejectionEntries } from '@app/testing/app-error-entries';
import { inlineWrites, type PlanCheck } from '@app/testing/inline-writes';
import { DomainVerifier } from './domain-verifier';
import { DomainsService } from './domains.service';

type DomainsPort = Pick<
  DomainsRepository,
  'findOwned' | 'listOwned' | 'insert' | 'save' | 'deleteOwned' | 'findByHost' | 'findEnabledByHost'
>;

/** An in-memory DomainsRepository that keeps the owner scoping of the real one. */
class FakeDomainsRepository implements DomainsPort {
  rows: DomainEntity[] = [];
  readonly inserted: Array<Omit<DomainEntity, 'id'>> = [];

  findOwned(ownerId: number, id: number): Promise<DomainEntity | null> {
    const row = this.rows.find((d) => d.id === id && d.user_id === ownerId);
    return Promise.resolve(row ? Object.assign(new DomainEntity(), row) : null);
  }

  listOwned(ownerId: number, query: ListQuery): Promise<Paginated<DomainEntity>> {
    const owned = this.rows.filter((d) => d.user_id === ownerId);
    return Promise.resolve(new Paginated(owned, owned.length, query.page, query.resultsPerPage));
  }

  insert(values: Omit<DomainEntity, 'id'>): Promise<number> {
    this.inserted.push(values);
    const id = 100 + this.rows.length;
    this.rows.push(Object.assign(new DomainEntity(), values, { id }));
    return Promise.resolve(id);
  }

  /** The error the next save fails with, as the database would raise it. */
  failNextSave: Error | null = null;

  save(entity: DomainEntity): Promise<DomainEntity> {
    if (this.failNextSave) {
      const error = this.failNextSave;
      this.failNextSave = null;
      return Promise.reject(error);
    }
    const index = this.rows.findIndex((d) => d.id === entity.id);
    this.rows[index] = Object.assign(new DomainEntity(), entity);
    return Promise.resolve(entity);
  }

  /** The outbox events of each write, as its transaction would have written them. */
  readonly outbox: OutboxEventInput[] = [];

  async saveRaising(entity: DomainEntity, events: RowEvents<DomainEntity>): Promise<DomainEntity> {
    const saved = await this.save(entity);
    this.outbox.push(...events.of([saved]));
    return saved;
  }

  deleteOwned(ownerId: number, id: number): Promise<boolean> {
    const before = this.rows.length;
    this.rows = this.rows.filter((d) => !(d.id === id && d.user_id === ownerId));
    return Promise.resolve(this.rows.length < before);
  }

  findByHost(host: string): Promise<DomainEntity[]> {
    return Promise.resolve(this.rows.filter((d) => d.host === host));
  }

  findEnabledByHost(host: string): Promise<DomainEntity | null> {
    return Promise.resolve(this.rows.find((d) => d.host === host && d.is_enabled) ?? null);
  }
}

/** Answers TXT lookups from a table; records the names asked. */
class FakeResolver {
  readonly asked: string[] = [];
  answers = new Map<string, TxtLookup>();

  lookup(name: string): Promise<TxtLookup> {
    this.asked.push(name);
    return Promise.resolve(this.answers.get(name) ?? { failure: 'nxdomain', code: 'ENOTFOUND' });
  }
}

const NOW = new Date('2026-11-21T10:00:00.000Z');
const CREATED = new Date('2026-01-02T03:04:05.678Z');
const clock: Clock = { now: () => new Date(NOW) };
const ACTOR: Actor = { userId: 1, apiKeyId: 9, isAdmin: false, ownerId: 2 };
const TOKEN = 'a'.repeat(32);
const NOT_FOUND: ErrorEntry[] = [
  {
    status: 404,
    title: 'The domain you are looking for does not exist.',
    code: 'domain_not_found',
  },
];

function uniqueViolation(): QueryFailedError {
  const driverError = Object.assign(new Error('UNIQUE constraint failed: domains.host'), {
    code: 'SQLITE_CONSTRAINT_UNIQUE',
  });
  return new QueryFailedError('UPDATE "domains" …', [], driverError);
}

function domain(values: Partial<DomainEntity> & { id: number; user_id: number }): DomainEntity {
  return Object.assign(new DomainEntity(), {
    scheme: 'https://',
    host: 'go.example.com',
    custom_index_url: '',
    custom_not_found_url: '',
    is_enabled: false,
    verification_token: TOKEN,
    verified_datetime: null,
    datetime: CREATED,
    last_datetime: null,
    ...values,
  });
}

describe(DomainsService.name, () => {
  let repository: FakeDomainsRepository;
  let resolver: FakeResolver;
  let events: Array<[string, unknown]>;
  let service: DomainsService;
  let checks: PlanCheck[];

  beforeEach(() => {
    repository = new FakeDomainsRepository();
    repository.rows.push(
      domain({ id: 5, user_id: 2 }),
      domain({
        id: 6,
        user_id: 2,
        host: 'on.example.com',
        is_enabled: true,
        verified_datetime: CREATED,
      }),
      domain({ id: 7, user_id: 1, host: 'private.example.com' }),
      domain({
        id: 8,
        user_id: 3,
        host: 'taken.example.com',
        is_enabled: true,
        verified_datetime: CREATED,
      }),
      domain({ id: 9, user_id: 2, host: 'taken.example.com', verified_datetime: CREATED }),
    );
    resolver = new FakeResolver();
    events = [];
    const emitter = {
      emit: (name: string, payload: unknown) => events.push([name, payload]) > 0,
    } as unknown as EventEmitter2;
    // Plans limit nothing here; the writes run at once.
    const writes = inlineWrites();
    checks = writes.checks;
    service = new DomainsService(
      writes.db,
      writes.limits,
      repository as unknown as DomainsRepository,
      new DomainVerifier(resolver as unknown as DnsTxtResolver),
      emitter,
      clock,
      { appUrl: 'https://links.test/base' },
    );
  });

  describe('create', () => {
    it('creates a disabled domain with a fresh token and default scheme, and announces it', async () => {
      expect(await service.create(ACTOR, { host: 'new.example.com' })).toEqual({ id: 105 });
      const [values] = repository.inserted;
      expect(values).toEqual({
        user_id: 2,
        scheme: 'https://',
        host: 'new.example.com',
        custom_index_url: '',
        custom_not_found_url: '',
        is_enabled: false,
        verification_token: expect.stringMatching(/^[0-9a-f]{32}$/),
        verified_datetime: null,
        datetime: NOW,
        last_datetime: null,
      });
      expect(events).toEqual([[DOMAIN_CHANGED, { domainId: 105, host: 'new.example.com' }]]);
      expect(checks).toEqual([{ ownerId: 2, needs: { domains: 1 } }]);
    });

    it('gives every domain its own token', async () => {
      await service.create(ACTOR, { host: 'a.example.com' });
      await service.create(ACTOR, { host: 'b.example.com' });
      expect(repository.inserted[0].verification_token).not.toBe(
        repository.inserted[1].verification_token,
      );
    });

    it('accepts a host another account has, since only one can enable it', async () => {
      expect(await service.create({ ...ACTOR, ownerId: 4 }, { host: 'taken.example.com' })).toEqual(
        { id: 105 },
      );
    });

    it('refuses a host the owner already has with 400 already_exists', async () => {
      expect(await rejectionEntries(service.create(ACTOR, { host: 'go.example.com' }))).toEqual([
        {
          status: 400,
          title: 'You already have the domain go.example.com.',
          field: 'host',
          code: 'already_exists',
        },
      ]);
      expect(events).toEqual([]);
    });

    it("refuses the service's own host", async () => {
      expect(await rejectionEntries(service.create(ACTOR, { host: 'links.test' }))).toEqual([
        {
          status: 400,
          title:
            'host links.test is the address of this Linkdock server itself; add a domain of your own.',
          field: 'host',
          code: 'validation_failed',
        },
      ]);
    });
  });

  describe('update', () => {
    it('changes the given fields, keeps the others and the enabled state', async () => {
      expect(
        await service.update(ACTOR, 6, { scheme: 'http://', custom_index_url: 'https://x.org/' }),
      ).toEqual({ id: 6 });
      expect(repository.rows[1]).toEqual(
        domain({
          id: 6,
          user_id: 2,
          host: 'on.example.com',
          scheme: 'http://',
          custom_index_url: 'https://x.org/',
          is_enabled: true,
          verified_datetime: CREATED,
          last_datetime: NOW,
        }),
      );
      expect(events).toEqual([[DOMAIN_CHANGED, { domainId: 6, host: 'on.example.com' }]]);
    });

    it('disables on a new host, clears the verification and issues a new token', async () => {
      await service.update(ACTOR, 6, { host: 'moved.example.com' });
      const row = repository.rows[1];
      expect(row).toMatchObject({
        host: 'moved.example.com',
        is_enabled: false,
        verified_datetime: null,
        last_datetime: NOW,
      });
      expect(row.verification_token).toMatch(/^[0-9a-f]{32}$/);
      expect(row.verification_token).not.toBe(TOKEN);
      expect(events).toEqual([
        [
          DOMAIN_CHANGED,
          { domainId: 6, host: 'moved.example.com', previousHost: 'on.example.com' },
        ],
      ]);
    });

    it('keeps everything when the same host is sent again', async () => {
      await service.update(ACTOR, 6, { host: 'on.example.com' });
      expect(repository.rows[1]).toMatchObject({ is_enabled: true, verification_token: TOKEN });
    });

    it('disables with is_enabled=0 and re-enables a verified domain with is_enabled=1', async () => {
      await service.update(ACTOR, 6, { is_enabled: false });
      expect(repository.rows[1].is_enabled).toBe(false);
      await service.update(ACTOR, 6, { is_enabled: true });
      expect(repository.rows[1].is_enabled).toBe(true);
    });

    it('refuses to enable an unverified domain, telling how to verify', async () => {
      expect(await rejectionEntries(service.update(ACTOR, 5, { is_enabled: true }))).toEqual([
        {
          status: 400,
          title: `The domain must be verified before it can be enabled: publish a TXT record at _linkdock.go.example.com with the value linkdock-verify=${TOKEN}, then send POST /v1/domains/5/verify.`,
          field: 'is_enabled',
          code: 'domain_not_verified',
        },
      ]);
      expect(repository.rows[0]).toEqual(domain({ id: 5, user_id: 2 }));
    });

    it('refuses to enable while changing the host, leaving the row unchanged', async () => {
      const entries = await rejectionEntries(
        service.update(ACTOR, 6, { host: 'moved.example.com', is_enabled: true }),
      );
      expect(entries).toEqual([
        expect.objectContaining({
          title: expect.stringMatching(/^The new host must be verified before it can be enabled/),
          code: 'domain_not_verified',
        }),
      ]);
      expect(repository.rows[1]).toMatchObject({ host: 'on.example.com', is_enabled: true });
      expect(events).toEqual([]);
    });

    it('refuses to enable a host another account has enabled', async () => {
      expect(await rejectionEntries(service.update(ACTOR, 9, { is_enabled: true }))).toEqual([
        {
          status: 400,
          title:
            'The domain taken.example.com is already enabled by another account; it can be enabled for only one.',
          field: 'is_enabled',
          code: 'domain_host_in_use',
        },
      ]);
    });

    it('answers domain_host_in_use when another account enabled the host meanwhile', async () => {
      await service.update(ACTOR, 6, { is_enabled: false });
      events.length = 0;
      repository.failNextSave = uniqueViolation();

      expect(await rejectionEntries(service.update(ACTOR, 6, { is_enabled: true }))).toEqual([
        expect.objectContaining({ field: 'is_enabled', code: 'domain_host_in_use' }),
      ]);
      expect(repository.rows[1].is_enabled).toBe(false);
      expect(events).toEqual([]);
    });

    it('refuses to move to a host the owner already has', async () => {
      expect(await rejectionEntries(service.update(ACTOR, 5, { host: 'on.example.com' }))).toEqual([
        {
          status: 400,
          title: 'You already have the domain on.example.com.',
          field: 'host',
          code: 'already_exists',
        },
      ]);
    });

    it.each([[404], [7]])('answers 404 for domain %i', async (id) => {
      expect(await rejectionEntries(service.update(ACTOR, id, { scheme: 'http://' }))).toEqual(
        NOT_FOUND,
      );
      expect(repository.rows[2]).toEqual(
        domain({ id: 7, user_id: 1, host: 'private.example.com' }),
      );
    });
  });

  describe('verify', () => {
    const name = '_linkdock.go.example.com';
    const expected = `Expected a TXT record at ${name} with the value linkdock-verify=${TOKEN}, but`;
    const advice = 'Publish the record, wait for DNS to update, and verify again.';

    it('enables and stamps the domain when a TXT record carries the token', async () => {
      resolver.answers.set(name, { found: ['v=spf1 -all', `linkdock-verify=${TOKEN}`] });

      const response = await service.verify(ACTOR, 5);

      expect(resolver.asked).toEqual([name]);
      expect(repository.outbox).toEqual([
        { event: 'domain.verified', ownerId: ACTOR.ownerId, data: response },
      ]);
      expect(response).toEqual({
        id: 5,
        scheme: 'https://',
        host: 'go.example.com',
        custom_index_url: '',
        custom_not_found_url: '',
        is_enabled: true,
        verification: {
          type: 'TXT',
          name,
          value: `linkdock-verify=${TOKEN}`,
          verified_datetime: '2026-11-21 10:00:00',
        },
        last_datetime: '2026-11-21 10:00:00',
        datetime: '2026-01-02 03:04:05',
      });
      expect(repository.rows[0]).toMatchObject({ is_enabled: true, verified_datetime: NOW });
      expect(events).toEqual([[DOMAIN_CHANGED, { domainId: 5, host: 'go.example.com' }]]);
    });

    it.each<[string, TxtLookup, string]>([
      [
        'NXDOMAIN',
        { failure: 'nxdomain', code: 'ENOTFOUND' },
        `the name ${name} does not exist (NXDOMAIN)`,
      ],
      ['no TXT records', { failure: 'no_records', code: 'ENODATA' }, `${name} has no TXT records`],
      ['a timeout', { failure: 'timeout', code: 'ETIMEOUT' }, 'the DNS query timed out'],
      [
        'a server failure',
        { failure: 'error', code: 'ESERVFAIL' },
        'the DNS query failed (ESERVFAIL)',
      ],
      [
        'other values',
        { found: ['linkdock-verify=old', 'x'.repeat(120)] },
        `found only "linkdock-verify=old", "${'x'.repeat(100)}…"`,
      ],
      [
        'many values',
        { found: ['1', '2', '3', '4', '5', '6', '7'] },
        'found only "1", "2", "3", "4", "5" and 2 more',
      ],
    ])('fails on %s, saying what was expected and found', async (_case, lookup, found) => {
      resolver.answers.set(name, lookup);

      expect(await rejectionEntries(service.verify(ACTOR, 5))).toEqual([
        {
          status: 400,
          title: `${expected} ${found}. ${advice}`,
          code: 'domain_verification_failed',
        },
      ]);
      expect(repository.rows[0]).toEqual(domain({ id: 5, user_id: 2 }));
      expect(events).toEqual([]);
    });

    it('answers domain_host_in_use when another account enabled the host meanwhile', async () => {
      resolver.answers.set(name, { found: [`linkdock-verify=${TOKEN}`] });
      repository.failNextSave = uniqueViolation();

      expect(await rejectionEntries(service.verify(ACTOR, 5))).toEqual([
        {
          status: 400,
          title:
            'The domain go.example.com is already enabled by another account; it can be enabled for only one.',
          code: 'domain_host_in_use',
        },
      ]);
      expect(events).toEqual([]);
    });

    it('passes on other database failures', async () => {
      resolver.answers.set(name, { found: [`linkdock-verify=${TOKEN}`] });
      const failure = new Error('disk I/O error');
      repository.failNextSave = failure;

      await expect(service.verify(ACTOR, 5)).rejects.toBe(failure);
    });

    it('refuses a host another account has enabled without asking DNS', async () => {
      expect(await rejectionEntries(service.verify(ACTOR, 9))).toEqual([
        {
          status: 400,
          title:
            'The domain taken.example.com is already enabled by another account; it can be enabled for only one.',
          code: 'domain_host_in_use',
        },
      ]);
      expect(resolver.asked).toEqual([]);
    });

    it.each([[404], [7]])('answers 404 for domain %i', async (id) => {
      expect(await rejectionEntries(service.verify(ACTOR, id))).toEqual(NOT_FOUND);
    });
  });

  describe('remove', () => {
    it('deletes the domain and announces it', async () => {
      expect(await service.remove(ACTOR, 6)).toEqual({ id: 6 });
      expect(repository.rows.map((d) => d.id)).toEqual([5, 7, 8, 9]);
      expect(events).toEqual([[DOMAIN_CHANGED, { domainId: 6, host: 'on.example.com' }]]);
    });

    it.each([[404], [7]])('answers 404 for domain %i and deletes nothing', async (id) => {
      expect(await rejectionEntries(service.remove(ACTOR, id))).toEqual(NOT_FOUND);
      expect(repository.rows).toHaveLength(5);
      expect(events).toEqual([]);
    });
  });

  describe('get and list', () => {
    it('maps a domain to the response shape', async () => {
      expect(await service.get(ACTOR, 6)).toEqual({
        id: 6,
        scheme: 'https://',
        host: 'on.example.com',
        custom_index_url: '',
        custom_not_found_url: '',
        is_enabled: true,
        verification: {
          type: 'TXT',
          name: '_linkdock.on.example.com',
          value: `linkdock-verify=${TOKEN}`,
          verified_datetime: '2026-01-02 03:04:05',
        },
        last_datetime: null,
        datetime: '2026-01-02 03:04:05',
      });
    });

    it('lists only the owner workspace', async () => {
      const query: ListQuery = {
        page: 1,
        resultsPerPage: 25,
        search: null,
        order: { column: 'id', direction: 'DESC' },
        datetime: null,
        filters: [],
      };
      const page = await service.list(ACTOR, query);
      expect(page.items.map((d) => d.id)).toEqual([5, 6, 9]);
    });
  });

  describe('tlsCheck', () => {
    it('answers for an enabled domain, normalising the asked host', async () => {
      expect(await service.tlsCheck(' ON.Example.com. ')).toEqual({ domain: 'on.example.com' });
    });

    it.each(['go.example.com', 'unknown.example.com', '127.0.0.1', 'on.example.com:443'])(
      'answers 404 for %s',
      async (host) => {
        expect(await rejectionEntries(service.tlsCheck(host))).toEqual(NOT_FOUND);
      },
    );

    it.each([undefined, ' '])('answers 400 naming domain when it is %p', async (host) => {
      expect(await rejectionEntries(service.tlsCheck(host))).toEqual([
        { status: 400, title: 'domain is required.', field: 'domain', code: 'validation_failed' },
      ]);
    });
  });
});
