import { randomInt } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { VisitorInfo } from '@app/analytics';
import { appendQuery, buildTrustedProxies, clientIp, type TrustedProxies } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { VisitorLink } from '../cache/visitor-link';
import { notFound } from '../http';
import type { Visit } from '../visit';
import type { Gate } from './gate';

/**
 * Targeting: sets the visit's destination, the first rule matching the visitor (rotation, country,
 * continent, device type, OS, browser, language) or else the link's own, with the visit's query
 * when the link forwards it. A visitor left with no destination gets the 404.
 */
@Injectable()
export class TargetingGate implements Gate {
  private readonly trusted: TrustedProxies | null;

  constructor(
    private readonly info: VisitorInfo,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.trusted = buildTrustedProxies(config.trustedProxies);
  }

  /**
   * Country and continent rules need the geo database, read once per process: the promise of
   * its load while it is not ready (check once it settles), else null.
   */
  geoLoading(link: VisitorLink): Promise<void> | null {
    const needsGeo =
      link.targetingType === 'country_code' || link.targetingType === 'continent_code';
    return needsGeo && !this.info.geoReady() ? this.info.loadGeo() : null;
  }

  check(visit: Visit, link: VisitorLink): boolean {
    let destination = link.location;
    if (link.targetingType !== null) {
      if (link.targetingType === 'country_code' || link.targetingType === 'continent_code') {
        visit.ip = clientIp(visit.req, this.trusted);
      }
      destination = this.target(link, visit.req, visit.ip) ?? destination;
    }
    if (destination === null) {
      notFound(visit, null, visit.head);
      return true;
    }
    visit.destination = link.forwardQuery ? appendQuery(destination, visit.query) : destination;
    return false;
  }

  /** The destination of the first rule matching the visitor, or null to use the default. */
  private target(link: VisitorLink, req: IncomingMessage, ip: string | null): string | null {
    switch (link.targetingType) {
      case 'rotation': {
        let pick = randomInt(link.rotationTotal);
        for (const rule of link.targeting) {
          pick -= Number(rule.key);
          if (pick < 0) return rule.value;
        }
        return null;
      }
      case 'country_code': {
        const country = this.info.geo(ip ?? '').country_code;
        return link.targeting.find((r) => r.key === country)?.value ?? null;
      }
      case 'continent_code': {
        const continent = this.info.geo(ip ?? '').continent_code;
        return link.targeting.find((r) => r.key === continent)?.value ?? null;
      }
      case 'device_type': {
        const type = this.info.device(req.headers['user-agent']).device_type;
        return link.targeting.find((r) => r.key === type)?.value ?? null;
      }
      case 'os_name': {
        const os = this.info.device(req.headers['user-agent']).os_name?.toLowerCase();
        return link.targeting.find((r) => r.key.toLowerCase() === os)?.value ?? null;
      }
      case 'browser_name': {
        const browser = this.info.device(req.headers['user-agent']).browser_name?.toLowerCase();
        return link.targeting.find((r) => r.key.toLowerCase() === browser)?.value ?? null;
      }
      case 'browser_language': {
        const language = this.info.language(req.headers['accept-language']);
        return link.targeting.find((r) => r.key === language)?.value ?? null;
      }
      case null:
        return null;
    }
  }
}
