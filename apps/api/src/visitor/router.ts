import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { ANY_ALIAS, isReservedAlias } from '@app/links';
import { readScanMarker } from '@app/qr';
import { VisitorCache, type VisitorDomain } from './cache/visitor-cache.service';
import type { VisitorLink } from './cache/visitor-link';
import { notFound, settle } from './http';
import { Served } from './served';
import { type RequestListener, Visit } from './visit';

/** `/{alias}` and, for static sites, `/{alias}/any/path`, with any alias a link can have. */
const LINK_PATH = new RegExp(`^/(${ANY_ALIAS})(/.*)?$`);

/**
 * Which host, then which link: turns a request into a Visit, resolves its Host header to a route
 * and its alias to a link, synchronously when the cache has them and through one load otherwise.
 */
@Injectable()
export class VisitorRouter {
  private readonly mainHost: string;

  constructor(
    private readonly cache: VisitorCache,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly served: Served,
  ) {
    this.mainHost = new URL(config.appUrl).hostname.toLowerCase();
  }

  /**
   * The visit a request is, or null when it is not a visitor's (another method, a post to the
   * root, a path that names no alias or a reserved one): those go on to Nest.
   */
  parse(req: IncomingMessage, res: ServerResponse, next: RequestListener): Visit | null {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
      return null;
    }
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const query = q === -1 || q === rawUrl.length - 1 ? null : rawUrl.slice(q + 1);
    const host = hostOf(req);
    const isMain = host === this.mainHost || host === '';

    if (path === '/') {
      // The root: the main domain's page, a custom domain's index URL. A post to it is Nest's.
      if (method === 'POST') {
        return null;
      }
      return new Visit(req, res, next, host, isMain, '', path, query, null, this.served);
    }
    const match = LINK_PATH.exec(path);
    if (!match) {
      return null;
    }
    const alias = match[1];
    if (isReservedAlias(alias)) {
      return null;
    }
    // The scan marker of a QR code goes before any step reads the query: it is never forwarded.
    const marked = readScanMarker(query);
    const visit = new Visit(
      req,
      res,
      next,
      host,
      isMain,
      alias,
      path,
      marked.query,
      match[2] ?? null,
      this.served,
    );
    visit.qrCodeId = marked.qrCodeId;
    visit.sentQuery = query;
    return visit;
  }

  /**
   * Resolves the Host header to a route, synchronously when cached. A host that is no custom
   * domain (an IP address, another name of this server) serves the main domain; a custom domain
   * that is not enabled serves nothing (and leaves the longer paths to Nest).
   */
  route(visit: Visit, then: (visit: Visit) => void): void {
    if (visit.isMain) {
      then(visit);
      return;
    }
    const cached = this.cache.peekHost(visit.host);
    if (cached !== undefined) {
      routeTo(visit, cached, then);
      return;
    }
    settle(
      visit.res,
      this.cache.loadHost(visit.host).then((domain) => routeTo(visit, domain, then)),
    );
  }

  /** The link the visit's alias names on its route (null: none), synchronously when cached. */
  link(visit: Visit, then: (visit: Visit, link: VisitorLink | null) => void): void {
    const cached = this.cache.peekLink(visit.domainId, visit.alias);
    if (cached !== undefined) {
      then(visit, cached);
      return;
    }
    settle(
      visit.res,
      this.cache.loadLink(visit.domainId, visit.alias).then((link) => then(visit, link)),
    );
  }
}

function routeTo(visit: Visit, domain: VisitorDomain | null, then: (visit: Visit) => void): void {
  if (domain === null) {
    then(visit);
  } else if (domain.enabled) {
    visit.domain = domain;
    then(visit);
  } else if (visit.rest !== null) {
    visit.passOn();
  } else {
    notFound(visit, null, false);
  }
}

/** The Host header's name, lower-case, without port; '' when absent or malformed. */
export function hostOf(req: IncomingMessage): string {
  const header = req.headers.host;
  if (!header) {
    return '';
  }
  let host = header.toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? '' : host.slice(0, end + 1);
  }
  const colon = host.indexOf(':');
  if (colon !== -1) {
    host = host.slice(0, colon);
  }
  return host.endsWith('.') ? host.slice(0, -1) : host;
}
