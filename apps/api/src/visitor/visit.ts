import type { IncomingMessage, ServerResponse } from 'node:http';
import type { VisitorDomain } from './cache/visitor-cache.service';
import type { Served } from './served';
import { NO_SITE_ACCESS, type SiteAccessPath } from './static/site-access';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * One request the listener claimed, as the router and the gates see it: the request, its path
 * split once, and what the steps learn on the way. One object per request, with every field set
 * in the constructor (so all visits share one shape); the steps pass it along instead of closures.
 */
export class Visit {
  readonly head: boolean;
  /** Where the request landed: null for the main domain (and hosts that are no custom domain). */
  domain: VisitorDomain | null = null;
  /** The visitor's address once a step needed it (geo targeting); a counted visit reuses it. */
  ip: string | null = null;
  /** Where the visitor goes, once the targeting gate chose it. */
  destination = '';
  /** Static sites: `rest` with its capability segment split off (site-access.ts). */
  access: SiteAccessPath = NO_SITE_ACCESS;
  /** Set once the link was read again because the version it pointed at was gone. */
  reloaded = false;
  /**
   * The QR code the request's scan marker named (0: none), not checked yet: the visit writer
   * counts it as a scan only for a code of the link's owner that encodes the link.
   */
  qrCodeId = 0;
  /** The query as the request sent it, scan marker included (`query` is without it). */
  sentQuery: string | null;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    /** Express, with Nest inside: where the requests the listener does not answer go. */
    readonly next: RequestListener,
    /** The Host header's name, lower-case, without port ('' when absent). */
    readonly host: string,
    readonly isMain: boolean,
    /** The `{alias}` of `/{alias}`; '' for the root (`/`). */
    readonly alias: string,
    readonly path: string,
    /** The request's query without `?` and without the scan marker (router.ts), or null. */
    readonly query: string | null,
    /** The path after `/{alias}` (a file of a static site), null when there is none. */
    readonly rest: string | null,
    /** The process's counters of what the visitor side answered. */
    readonly served: Served,
  ) {
    this.head = req.method === 'HEAD';
    this.sentQuery = query;
  }

  get domainId(): number {
    return this.domain === null ? 0 : this.domain.id;
  }

  /** The link's own URL, where its forms post to: the path with the query as sent. */
  action(): string {
    return this.sentQuery === null ? this.path : `${this.path}?${this.sentQuery}`;
  }

  /** Hands the request to Nest, exactly as if the listener had not looked. */
  passOn(): void {
    this.next(this.req, this.res);
  }
}
