import { EventEmitter2 } from '@nestjs/event-emitter';
import { Actor } from '@app/auth';
import { type PlanLimits } from '@app/billing';
import { AppError, LINK_CHANGED } from '@app/common';
import type { AppConfig } from '@app/config';
import { defaultLinkSettings, DomainsRepository, LinksRepository, NewLinkRow } from '@app/database';
import { OwnerLocks } from '@app/redis';
import { inlineWrites } from '@app/testing/inline-writes';
import { CreateLinkDto } from '../dto/create-link.dto';
import { LinkChecks } from '../link-checks.service';
import { LinkInputService, NewLinkInput } from '../link-input.service';
import { BatchedLinkLookups } from './batched-lookups';
import { LinksBulkService } from './links-bulk.service';

const ACTOR: Actor = { userId: 4, ownerId: 4, apiKeyId: 1, isAdmin: false };
const NOW = new Date('2026-05-01T12:00:00.000Z');

/**
 * Draws the aliases it is given, in order, as the random ones. `limits` replaces the plans, which
 * limit nothing by default; the writes run at once (inlineWrites).
 */
function setup(randoms: string[], limits?: PlanLimits) {
  const writes = inlineWrites();
  const draws = [...randoms];
  const checks = {
    withLookups: () => checks,
    freeRandomAlias: () => Promise.resolve(draws.shift()!),
  };
  const input = {
    validateCreate: jest.fn(async (_actor: Actor, dto: CreateLinkDto): Promise<NewLinkInput> => ({
      type: dto.type ?? 'link',
      domainId: dto.domain_id ?? 0,
      projectId: null,
      splashPageId: null,
      alias: dto.url || (await checks.freeRandomAlias()),
      location: dto.location_url ?? null,
      settings: defaultLinkSettings(),
      passwordHash: null,
      window: { start: null, end: null },
    })),
  };
  const inserted: NewLinkRow[][] = [];
  const links = {
    insertMany: (rows: NewLinkRow[]) => {
      inserted.push(rows);
      return Promise.resolve(rows.map((_, i) => 100 + i));
    },
  };
  const domains = {
    findOwned: (_owner: number, id: number) =>
      Promise.resolve(id === 9 ? { scheme: 'https://', host: 'go.example.com' } : null),
  };
  const events = { emit: jest.fn() };
  const service = new LinksBulkService(
    writes.db,
    limits ?? writes.limits,
    links as unknown as LinksRepository,
    domains as unknown as DomainsRepository,
    input as unknown as LinkInputService,
    checks as unknown as LinkChecks,
    { create: () => ({}) } as unknown as BatchedLinkLookups,
    events as unknown as EventEmitter2,
    { now: () => NOW },
    new OwnerLocks(),
    { appUrl: 'http://links.test' } as AppConfig,
  );
  return { service, inserted, events, input, checks: writes.checks };
}

const link = (fields: Record<string, unknown> = {}) => ({
  location_url: 'https://example.com/',
  ...fields,
});

describe(LinksBulkService.name, () => {
  it('draws a random alias again when it equals another alias of the batch', async () => {
    const { service } = setup(['same123', 'same123', 'chosen1', 'fresh12', 'fresh34']);
    const results = await service.check(ACTOR, [link(), link(), link({ url: 'chosen1' }), link()]);
    const aliases = results.map((r) => (r.ok ? r.link.input.alias : null));
    expect(new Set(aliases).size).toBe(4);
    expect(aliases[2]).toBe('chosen1');
    expect(aliases).not.toContain(null);
  });

  it('makes a chosen alias used twice on one domain a problem of its later use only', async () => {
    const { service } = setup([]);
    const results = await service.check(ACTOR, [
      link({ url: 'twice-1' }),
      link({ url: 'twice-1', domain_id: 9 }),
      link({ url: 'twice-1' }),
    ]);
    expect(results.map((r) => r.ok)).toEqual([true, true, false]);
    expect(results[2]).toEqual({
      ok: false,
      problems: [
        {
          title: 'The alias "twice-1" is also used by link [0] of this batch.',
          field: 'url',
          code: 'alias_taken',
        },
      ],
    });
  });

  it('writes the links in order, with their domain roots, and tells the visitor cache', async () => {
    const { service, inserted, events, checks } = setup(['rand001']);
    const created = await service.create(ACTOR, [link({ url: 'on-main' }), link({ domain_id: 9 })]);
    // The plan counts the whole batch, in the write of its insert.
    expect(checks).toEqual([{ ownerId: 4, needs: { links: 2 } }]);
    expect(created).toEqual([
      { id: 100, url: 'on-main', full_url: 'http://links.test/on-main' },
      { id: 101, url: 'rand001', full_url: 'https://go.example.com/rand001' },
    ]);
    expect(
      inserted[0].map((row) => [row.user_id, row.domain_id, row.clicks, row.datetime]),
    ).toEqual([
      [4, 0, 0, NOW],
      [4, 9, 0, NOW],
    ]);
    expect(events.emit.mock.calls).toEqual([
      [LINK_CHANGED, { linkId: 100, domainId: 0, alias: 'on-main' }],
      [LINK_CHANGED, { linkId: 101, domainId: 9, alias: 'rand001' }],
    ]);
  });

  it('refuses a batch beyond the plan before checking any of its links', async () => {
    const refusing = {
      precheck: () =>
        Promise.reject(new AppError('plan_limit_reached', 'Your plan allows 1 link; you have 1.')),
    } as unknown as PlanLimits;
    const { service, input } = setup([], refusing);
    await expect(service.create(ACTOR, [link(), link()])).rejects.toMatchObject({
      code: 'plan_limit_reached',
    });
    expect(input.validateCreate).not.toHaveBeenCalled();
  });

  it('refuses a second batch of the account while one runs with 429 bulk_in_progress', async () => {
    const { service } = setup(['rand001', 'rand002']);
    let finish!: () => void;
    const running = service.exclusive(ACTOR, () => new Promise<void>((r) => (finish = r)));
    await expect(service.create(ACTOR, [link()])).rejects.toMatchObject({
      code: 'bulk_in_progress',
      retryAfterSeconds: 5,
      status: 429,
    });
    await expect(
      service.create({ ...ACTOR, userId: 5, ownerId: 5 }, [link({ url: 'other-1' })]),
    ).resolves.toHaveLength(1);
    finish();
    await running;
    await expect(service.create(ACTOR, [link()])).resolves.toHaveLength(1);
  });

  it('checks a large batch a chunk at a time, letting timers run between chunks', async () => {
    const { service } = setup([]);
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 0);
    try {
      const results = await service.check(
        ACTOR,
        Array.from({ length: 300 }, (_, i) => link({ url: `chunk-${i}` })),
      );
      expect(results.every((r) => r.ok)).toBe(true);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
  });
});
