import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { DomainsRepository, LinksRepository } from '@app/database';
import { ANY_ALIAS } from '@app/links';

/** A short link's path: `/{alias}`, as the visitor side's router reads it. */
const LINK_PATH = new RegExp(`^/(${ANY_ALIAS})$`);

/**
 * Which of the owner's links a URL is: `{APP_URL}/{alias}` on the main domain or
 * `{scheme}{host}/{alias}` on one of the owner's custom domains, with any query and fragment. A
 * QR code of type url that encodes such a URL gets the scan marker (scan-marker.ts).
 */
@Injectable()
export class QrScanTargets {
  private readonly appOrigin: string;

  constructor(
    private readonly links: LinksRepository,
    private readonly domains: DomainsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.appOrigin = new URL(config.appUrl).origin;
  }

  /** The id of the owner's link the URL is the short URL of, or null. */
  async linkOf(ownerId: number, url: string): Promise<number | null> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    const alias = LINK_PATH.exec(parsed.pathname)?.[1];
    if (alias === undefined || parsed.username !== '' || parsed.password !== '') {
      return null;
    }
    let domainId: number | null = 0;
    if (parsed.origin !== this.appOrigin) {
      domainId =
        parsed.port === ''
          ? await this.domains.findOwnedIdByAddress(
              ownerId,
              `${parsed.protocol}//`,
              parsed.hostname,
            )
          : null;
    }
    return domainId === null ? null : this.links.findOwnedIdByAlias(ownerId, domainId, alias);
  }
}
