import { setImmediate } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Actor } from '@app/auth';
import { PlanLimits } from '@app/billing';
import {
  AppError,
  Clock,
  createValidationPipe,
  isObject,
  LINK_CHANGED,
  LinkChangedEvent,
  Problem,
  RetryLaterError,
} from '@app/common';
import { WorkSlots } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { Db, DomainsRepository, type LinkEvents, LinksRepository, NewLinkRow } from '@app/database';
import { OwnerLocks } from '@app/redis';
import { CreateLinkDto } from '../dto/create-link.dto';
import { ImportedLinkDto } from '../dto/imported-link.dto';
import { LinkChecks } from '../link-checks.service';
import { LinkInputService, NewLinkInput } from '../link-input.service';
import { domainRoot, toLinkResponse } from '../link.mapper';
import { BatchedLinkLookups } from './batched-lookups';
import { atIndex, readBulkBody } from './bulk-body';

/** One link of a bulk create, as the answer lists it. */
export interface BulkCreatedLink {
  id: number;
  url: string;
  full_url: string;
}

/** A link that passed every check, ready to insert. */
export interface CheckedLink {
  input: NewLinkInput;
  dto: CreateLinkDto;
}

/** The outcome of checking one link of a batch. */
export type LinkCheck = { ok: true; link: CheckedLink } | { ok: false; problems: Problem[] };

/** A checked link with what only an import sets: the visits it had and when it was made. */
export interface LinkToInsert extends CheckedLink {
  clicks?: number;
  datetime?: Date;
}

/**
 * Links checked between two turns of the event loop: a thousand checked in one go held it for
 * seconds, and every other request of the instance waited.
 */
export const CHECK_CHUNK = 10;

/** Bulk creates that check and write at once in this process; the others wait their turn. */
export const BULK_SLOTS = 2;

/** Seconds a refused bulk create or import is asked to wait. */
export const BULK_RETRY_AFTER_SECONDS = 5;

/**
 * Creates many links at once with the rules of POST /v1/links (LinkInputService): every link is
 * checked first, the database questions of all of them batched, then all are written in one
 * transaction. Used by POST /v1/links/bulk (all or nothing) and the command line's import (link by
 * link: a bad row is reported, the others are created).
 */
@Injectable()
export class LinksBulkService {
  private readonly pipe = createValidationPipe();
  private readonly slots = new WorkSlots(BULK_SLOTS);

  constructor(
    private readonly db: Db,
    private readonly limits: PlanLimits,
    private readonly links: LinksRepository,
    private readonly domains: DomainsRepository,
    private readonly input: LinkInputService,
    private readonly checks: LinkChecks,
    private readonly lookups: BatchedLinkLookups,
    private readonly events: EventEmitter2,
    private readonly clock: Clock,
    private readonly locks: OwnerLocks,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * POST /v1/links/bulk: all created, or a 400 that lists every problem of every link. The cheap
   * refusals come first (the batch's size and shape, the plan's room for it, another bulk of the
   * account running), then the links are checked.
   */
  async create(actor: Actor, body: unknown): Promise<BulkCreatedLink[]> {
    const { items, form } = readBulkBody(body);
    await this.limits.precheck(actor.ownerId, { links: items.length });
    return this.exclusive(actor, () =>
      this.slots.run(() => this.checkAndInsert(actor, items, form)),
    );
  }

  /**
   * Runs `work` as the account's one bulk create or import (on every instance when Redis is
   * configured); refuses with 429 bulk_in_progress while another runs.
   */
  async exclusive<T>(actor: Actor, work: () => Promise<T>): Promise<T> {
    const release = await this.locks.tryAcquire('links-bulk', actor.ownerId);
    if (release === null) {
      throw new RetryLaterError(
        'bulk_in_progress',
        'Another bulk create or import of this account is running; send this one when it has finished.',
        BULK_RETRY_AFTER_SECONDS,
      );
    }
    try {
      return await work();
    } finally {
      await release();
    }
  }

  private async checkAndInsert(
    actor: Actor,
    items: readonly unknown[],
    form: boolean,
  ): Promise<BulkCreatedLink[]> {
    const checked = await this.check(actor, items);
    const problems: Problem[] = [];
    const shared = new Set<string>();
    checked.forEach((result, index) => {
      for (const problem of result.ok ? [] : result.problems) {
        if (form && problem.field !== undefined && problem.field !== 'location_url') {
          // A field every line shares: reported once, under its own name.
          const key = `${problem.field}\n${problem.title}`;
          if (!shared.has(key)) {
            shared.add(key);
            problems.push(problem);
          }
        } else {
          problems.push(atIndex(index, problem));
        }
      }
    });
    if (problems.length > 0) {
      throw new AppError('validation_failed', problems);
    }
    return this.insert(
      actor,
      checked.map((result) => (result as { ok: true; link: CheckedLink }).link),
    );
  }

  /**
   * Checks every item with the rules of POST /v1/links, in order; never throws for bad input. An
   * alias used twice in the batch is a problem of its later uses. `imported`: the aliases are
   * those links had elsewhere, and may be shorter than a new one (ImportedLinkDto).
   */
  async check(
    actor: Actor,
    items: readonly unknown[],
    options: { imported?: boolean } = {},
  ): Promise<LinkCheck[]> {
    const metatype = options.imported ? ImportedLinkDto : CreateLinkDto;
    const checks = this.checks.withLookups(this.lookups.create());
    const results: LinkCheck[] = [];
    for (let start = 0; start < items.length; start += CHECK_CHUNK) {
      if (start > 0) {
        await setImmediate();
      }
      const chunk = items.slice(start, start + CHECK_CHUNK);
      results.push(
        ...(await Promise.all(chunk.map((item) => this.checkOne(actor, item, checks, metatype)))),
      );
    }
    await this.claimAliases(results, checks);
    return results;
  }

  /**
   * Writes the links in one transaction, in order, and answers with their ids and addresses.
   * A link whose address was taken since its check fails the whole transaction (a 400).
   */
  async insert(
    actor: Actor,
    links: readonly LinkToInsert[],
    options: { raiseEvents: boolean } = { raiseEvents: true },
  ): Promise<BulkCreatedLink[]> {
    const now = this.clock.now();
    const rows: NewLinkRow[] = links.map(({ input, dto, clicks, datetime }) => ({
      user_id: actor.ownerId,
      project_id: input.projectId,
      domain_id: input.domainId,
      splash_page_id: input.splashPageId,
      type: input.type,
      url: input.alias,
      location_url: input.location,
      settings: JSON.stringify(input.settings),
      password_hash: input.passwordHash,
      clicks: clicks ?? 0,
      bot_clicks: 0,
      is_enabled: dto.is_enabled ?? true,
      start_date: input.window.start,
      end_date: input.window.end,
      datetime: datetime ?? now,
      last_datetime: null,
    }));
    const roots = await this.domainRoots(actor, rows);
    // One link.created per link, written in the insert's transaction.
    const events: LinkEvents | undefined = options.raiseEvents
      ? {
          now,
          of: (saved) =>
            saved.map((link) => ({
              event: 'link.created',
              ownerId: actor.ownerId,
              data: {
                ...toLinkResponse(
                  link,
                  roots.get(link.domain_id) ?? this.config.appUrl,
                  this.config.appUrl,
                ),
              },
            })),
        }
      : undefined;
    // The plan's links_limit counts the whole batch: all of it fits, or none is written.
    const ids =
      rows.length > 0
        ? await this.db.write(async () => {
            await this.limits.check(actor.ownerId, { links: rows.length });
            return this.links.insertMany(rows, events);
          })
        : [];
    const created: BulkCreatedLink[] = [];
    for (const [i, row] of rows.entries()) {
      if (i > 0 && i % 100 === 0) {
        // Each change empties visitor caches: a thousand at once held the event loop too.
        await setImmediate();
      }
      this.events.emit(LINK_CHANGED, {
        linkId: ids[i],
        domainId: row.domain_id,
        alias: row.url,
      } satisfies LinkChangedEvent);
      created.push({
        id: ids[i],
        url: row.url,
        full_url: `${roots.get(row.domain_id)}/${row.url}`,
      });
    }
    return created;
  }

  /** The problems of the domain and project an import puts every link in (one check). */
  referenceProblems(actor: Actor, domainId: number, projectId: number): Promise<Problem[]> {
    return this.checks.referenceProblems(actor, domainId, { project_id: projectId });
  }

  private async checkOne(
    actor: Actor,
    item: unknown,
    checks: LinkChecks,
    metatype: typeof CreateLinkDto,
  ): Promise<LinkCheck> {
    if (!isObject(item)) {
      return { ok: false, problems: [{ title: 'Each link must be an object of link fields.' }] };
    }
    if (item.type === 'static') {
      return {
        ok: false,
        problems: [
          {
            title:
              'Static sites cannot be created in bulk: create each with POST /v1/links and its file.',
            field: 'type',
          },
        ],
      };
    }
    if (item.type === 'biolink') {
      return {
        ok: false,
        problems: [
          {
            title:
              'Bio pages cannot be created in bulk: create each with POST /v1/links and its blocks with /v1/biolink-blocks.',
            field: 'type',
          },
        ],
      };
    }
    let dto: CreateLinkDto;
    try {
      dto = (await this.pipe.transform(item, {
        type: 'body',
        metatype,
      })) as CreateLinkDto;
      return {
        ok: true,
        link: { dto, input: await this.input.validateCreate(actor, dto, undefined, checks) },
      };
    } catch (error) {
      if (error instanceof AppError && error.status === 400) {
        return { ok: false, problems: [...error.problems] };
      }
      throw error;
    }
  }

  /**
   * Aliases must be unique in the batch too. A chosen alias used again is a problem of the later
   * link; a random alias that happens to equal another alias of the batch is drawn again.
   */
  private async claimAliases(results: LinkCheck[], checks: LinkChecks): Promise<void> {
    const claimed = new Map<string, number>();
    const redraw: CheckedLink[] = [];
    results.forEach((result, index) => {
      if (!result.ok) {
        return;
      }
      const { input, dto } = result.link;
      if (!dto.url) {
        redraw.push(result.link);
        return;
      }
      const key = `${input.domainId}/${input.alias}`;
      const first = claimed.get(key);
      if (first === undefined) {
        claimed.set(key, index);
        return;
      }
      results[index] = {
        ok: false,
        problems: [
          {
            title: `The alias "${input.alias}" is also used by link [${first}] of this batch.`,
            field: 'url',
            code: 'alias_taken',
          },
        ],
      };
    });
    for (const link of redraw) {
      let key = `${link.input.domainId}/${link.input.alias}`;
      while (claimed.has(key)) {
        link.input.alias = await checks.freeRandomAlias(link.input.domainId);
        key = `${link.input.domainId}/${link.input.alias}`;
      }
      claimed.set(key, -1);
    }
  }

  /** Roots of the links' domains (APP_URL for 0): one query per custom domain. */
  private async domainRoots(
    actor: Actor,
    rows: readonly NewLinkRow[],
  ): Promise<Map<number, string>> {
    const roots = new Map<number, string>([[0, this.config.appUrl]]);
    for (const domainId of new Set(rows.map((row) => row.domain_id))) {
      if (domainId !== 0) {
        const domain = await this.domains.findOwned(actor.ownerId, domainId);
        roots.set(domainId, domain ? domainRoot(domain) : this.config.appUrl);
      }
    }
    return roots;
  }
}
