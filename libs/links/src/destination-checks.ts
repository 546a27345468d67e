import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { DomainsRepository, LinkEntity, LinksRepository } from '@app/database';
import { linkPayload, OutboundError, safeRequest } from '@app/notifications';

/** A link's destination is broken after this many failed checks in a row. */
export const FAILURES_TO_BREAK = 3;
/** Each request (HEAD, and the GET after it) ends after this long. */
export const CHECK_TIMEOUT_MS = 10_000;
/** At most this many checks are in flight at once. */
export const CHECKS_IN_FLIGHT = 4;
/** Two checks of the same host start at least this far apart. */
export const HOST_SPACING_MS = 1_000;
/** The daily job checks a link again after this long. */
export const CHECK_EVERY_MS = 24 * 60 * 60 * 1000;
const BATCH = 200;
/** The GET fallback reads no more than this much of the body. */
const FIRST_BYTES = 1024;

/** What one check found: an HTTP status, or none (timeout, DNS, TLS, refused address). */
export interface CheckOutcome {
  statusCode: number | null;
  failed: boolean;
}

/**
 * Whether an answer is a failure: 5xx, and 4xx except 401, 403, 405 and 429 (the page is there,
 * it is only closed to an anonymous client, to this method or for now). Anything else answered.
 */
export function isFailureStatus(status: number): boolean {
  if (status >= 500) return true;
  if (status >= 400) return ![401, 403, 405, 429].includes(status);
  return false;
}

/** HEAD answers that say nothing about a GET: the server does not do HEAD. */
function headUnsupported(status: number): boolean {
  return status === 405 || status === 501 || isFailureStatus(status);
}

/** The next state of a link after one check (pure; events follow the change of status). */
export function nextHealth(
  previous: { status: string; failures: number },
  outcome: CheckOutcome,
): { status: 'ok' | 'broken' | 'unknown'; failures: number; event: string | null } {
  if (!outcome.failed) {
    return {
      status: 'ok',
      failures: 0,
      event: previous.status === 'broken' ? 'link.destination_recovered' : null,
    };
  }
  const failures = previous.failures + 1;
  if (failures >= FAILURES_TO_BREAK) {
    return {
      status: 'broken',
      failures,
      event: previous.status === 'broken' ? null : 'link.destination_broken',
    };
  }
  // Not yet broken: a link keeps what it was (unknown, or ok) until the third failure.
  return {
    status: previous.status === 'broken' ? 'broken' : (previous.status as 'ok' | 'unknown'),
    failures,
    event: null,
  };
}

/**
 * Spacing per host: `reserve` gives the time a check of `host` may start, at least
 * HOST_SPACING_MS after the one reserved before it. Pure but for its map; the clock is given.
 */
export class HostPacer {
  private readonly next = new Map<string, number>();

  constructor(private readonly spacingMs: number = HOST_SPACING_MS) {}

  /** Reserves the first start at or after `now` for `host`; returns the wait in milliseconds. */
  reserve(host: string, now: number): number {
    const at = Math.max(now, this.next.get(host) ?? now);
    this.next.set(host, at + this.spacingMs);
    return at - now;
  }
}

/** Links ordered so that consecutive ones are of different hosts where possible (round robin). */
export function interleaveByHost<T>(items: T[], hostOf: (item: T) => string): T[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const host = hostOf(item);
    const group = groups.get(host);
    if (group) group.push(item);
    else groups.set(host, [item]);
  }
  const lists = [...groups.values()];
  const out: T[] = [];
  for (let i = 0; out.length < items.length; i += 1) {
    for (const list of lists) if (i < list.length) out.push(list[i]);
  }
  return out;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return '';
  }
}

export interface CheckSummary {
  checked: number;
  ok: number;
  broken: number;
}

/**
 * Destination health (docs/links.md): checks the destinations of enabled links through the same
 * outbound address policy and switch as webhooks (ALLOW_PRIVATE_WEBHOOKS), HEAD first and a GET
 * of the first bytes when HEAD is refused or fails by status, 10 s each, at most 4 in flight and
 * one a second per host. The worker's daily job and `links:check-destinations` both run it.
 */
@Injectable()
export class DestinationChecks {
  private readonly logger = new Logger(DestinationChecks.name);

  constructor(
    private readonly links: LinksRepository,
    private readonly domains: DomainsRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** One HTTP check of a URL; never throws for what the destination does. */
  async probe(url: string, signal?: AbortSignal): Promise<CheckOutcome> {
    const policy = {
      allowPrivate: this.config.notifications.allowPrivateWebhooks,
      timeoutMs: CHECK_TIMEOUT_MS,
      maxRedirects: 5,
      maxBodyBytes: FIRST_BYTES,
    };
    const headers = { 'User-Agent': 'Linkdock-LinkCheck/1.0', Accept: '*/*' };
    try {
      if (signal?.aborted) return { statusCode: null, failed: true };
      const head = await safeRequest({ method: 'HEAD', url, headers }, policy);
      if (!headUnsupported(head.status)) {
        return { statusCode: head.status, failed: false };
      }
      const get = await safeRequest(
        { method: 'GET', url, headers: { ...headers, Range: `bytes=0-${FIRST_BYTES - 1}` } },
        policy,
      );
      return { statusCode: get.status, failed: isFailureStatus(get.status) };
    } catch (error) {
      if (!(error instanceof OutboundError)) {
        // Sockets fail with errors of their own (TLS, reset): a failed check all the same.
        this.logger.debug(`Check of ${url} failed: ${(error as Error).message}`);
      }
      return { statusCode: null, failed: true };
    }
  }

  /**
   * Checks the due links: `force` ignores the daily spacing (the command line). Returns the
   * counts of checked links and of those now ok and broken.
   */
  async run(
    options: { force?: boolean; userId?: number; linkId?: number; signal?: AbortSignal } = {},
  ): Promise<CheckSummary> {
    const summary: CheckSummary = { checked: 0, ok: 0, broken: 0 };
    const pacer = new HostPacer();
    const seen = new Set<number>();
    for (;;) {
      const before = options.force ? null : new Date(this.clock.now().getTime() - CHECK_EVERY_MS);
      const due = (
        await this.links.dueForDestinationCheck(before, BATCH, {
          userId: options.userId,
          linkId: options.linkId,
        })
      ).filter((link) => !seen.has(link.id));
      if (due.length === 0) break;
      due.forEach((link) => seen.add(link.id));
      const queue = interleaveByHost(due, (link) => hostOf(link.location_url ?? ''));
      const worker = async (): Promise<void> => {
        for (let link = queue.shift(); link; link = queue.shift()) {
          if (options.signal?.aborted) return;
          const wait = pacer.reserve(hostOf(link.location_url ?? ''), Date.now());
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          const status = await this.checkOne(link, options.signal);
          if (status === null) continue;
          summary.checked += 1;
          if (status === 'ok') summary.ok += 1;
          if (status === 'broken') summary.broken += 1;
        }
      };
      await Promise.all(Array.from({ length: CHECKS_IN_FLIGHT }, worker));
      if (options.signal?.aborted || due.length < BATCH) break;
    }
    return summary;
  }

  private async checkOne(link: LinkEntity, signal?: AbortSignal): Promise<string | null> {
    const outcome = await this.probe(link.location_url ?? '', signal);
    if (signal?.aborted) return null;
    const next = nextHealth(
      { status: link.destination_status ?? 'unknown', failures: link.destination_failures ?? 0 },
      outcome,
    );
    const now = this.clock.now();
    const base = await this.baseUrl(link);
    const row = await this.links.recordDestinationCheck(
      link.id,
      {
        status: next.status,
        statusCode: outcome.statusCode,
        failures: next.failures,
        checkedAt: now,
      },
      next.event === null
        ? null
        : {
            now,
            of: (rows) =>
              rows.map((r) => ({
                event: next.event!,
                ownerId: r.user_id,
                data: {
                  ...linkPayload(r, base, this.config.storage.publicUrl ?? this.config.appUrl),
                },
              })),
          },
    );
    return row === null ? null : next.status;
  }

  private async baseUrl(link: LinkEntity): Promise<string> {
    if (link.domain_id === 0) return this.config.appUrl;
    const domain = await this.domains.findOwned(link.user_id, link.domain_id);
    return domain ? `${domain.scheme}${domain.host}` : this.config.appUrl;
  }
}
