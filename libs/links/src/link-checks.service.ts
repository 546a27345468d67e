import { Inject, Injectable } from '@nestjs/common';
import { Actor } from '@app/auth';
import { Problem } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  DomainsRepository,
  LinksRepository,
  ProjectsRepository,
  SplashPagesRepository,
} from '@app/database';
import { isReservedAlias, randomAlias } from './alias';
import { UpdateLinkDto } from './dto/update-link.dto';
import { hostIdentity, serverIdentity } from './host-identity';

const RANDOM_ALIAS_ATTEMPTS = 8;

/**
 * What the checks ask the database. One link asks each question once; a batch of links answers
 * the same questions with one query per kind (links/bulk/batched-lookups.ts).
 */
export interface LinkLookups {
  ownsDomain(ownerId: number, id: number): Promise<boolean>;
  ownsProject(ownerId: number, id: number): Promise<boolean>;
  ownsSplashPage(ownerId: number, id: number): Promise<boolean>;
  aliasTaken(domainId: number, alias: string, exceptId?: number): Promise<boolean>;
  /** Whether an enabled custom domain has this host. */
  isDomainHost(host: string): Promise<boolean>;
}

/** The checks of link input that need the database or the service's own address. */
@Injectable()
export class LinkChecks {
  private readonly mainServer: string;
  private lookups: LinkLookups;

  constructor(
    links: LinksRepository,
    domains: DomainsRepository,
    projects: ProjectsRepository,
    splashPages: SplashPagesRepository,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'appUrl'>,
  ) {
    this.mainServer = serverIdentity(new URL(config.appUrl));
    this.lookups = {
      ownsDomain: async (ownerId, id) => (await domains.findOwned(ownerId, id)) !== null,
      ownsProject: async (ownerId, id) => (await projects.findOwned(ownerId, id)) !== null,
      ownsSplashPage: async (ownerId, id) => (await splashPages.findOwned(ownerId, id)) !== null,
      aliasTaken: (domainId, alias, exceptId) => links.aliasTaken(domainId, alias, exceptId),
      isDomainHost: async (host) => (await domains.findEnabledByHost(host)) !== null,
    };
  }

  /** The same checks, asking `lookups` instead of the database one question at a time. */
  withLookups(lookups: LinkLookups): LinkChecks {
    const checks = Object.create(this) as LinkChecks;
    checks.lookups = lookups;
    return checks;
  }

  /** The domain, project and splash page a body names must be the owner's (0 = none). */
  async referenceProblems(
    actor: Actor,
    domainId: number | undefined,
    { project_id: projectId, splash_page_id: splashPageId }: UpdateLinkDto,
  ): Promise<Problem[]> {
    const problems: Problem[] = [];
    if (isSet(domainId) && !(await this.lookups.ownsDomain(actor.ownerId, domainId))) {
      problems.push({
        title: 'domain_id is not one of your domains (0 = the main domain).',
        field: 'domain_id',
        code: 'invalid_reference',
      });
    }
    if (isSet(projectId) && !(await this.lookups.ownsProject(actor.ownerId, projectId))) {
      problems.push({
        title: 'project_id is not one of your projects.',
        field: 'project_id',
        code: 'invalid_reference',
      });
    }
    if (isSet(splashPageId) && !(await this.lookups.ownsSplashPage(actor.ownerId, splashPageId))) {
      problems.push({
        title: 'splash_page_id is not one of your splash pages.',
        field: 'splash_page_id',
        code: 'invalid_reference',
      });
    }
    return problems;
  }

  async aliasProblems(
    alias: string,
    domainId: number,
    exceptId: number | undefined,
  ): Promise<Problem[]> {
    if (isReservedAlias(alias)) {
      return [
        {
          title: `The alias "${alias}" is reserved by the service; choose another.`,
          field: 'url',
          code: 'alias_reserved',
        },
      ];
    }
    if (await this.lookups.aliasTaken(domainId, alias, exceptId)) {
      return [
        {
          title: `The alias "${alias}" is already taken on this domain.`,
          field: 'url',
          code: 'alias_taken',
        },
      ];
    }
    return [];
  }

  async freeRandomAlias(domainId: number): Promise<string> {
    for (let i = 0; i < RANDOM_ALIAS_ATTEMPTS; i += 1) {
      const alias = randomAlias();
      if (!isReservedAlias(alias) && !(await this.lookups.aliasTaken(domainId, alias))) {
        return alias;
      }
    }
    throw new Error('Could not find a free random alias');
  }

  /**
   * A destination on the service's own host (or one of its domains) would redirect in a loop.
   * Hosts are compared by identity, so `localhost` is 127.0.0.1 and `::ffff:7f00:1` is too.
   */
  async selfLinkProblems(url: string | null, field: string): Promise<Problem[]> {
    if (url === null) {
      return [];
    }
    const parsed = new URL(url);
    const hostname = parsed.hostname.replace(/\.+$/, '');
    if (
      serverIdentity(parsed) === this.mainServer ||
      (await this.lookups.isDomainHost(hostIdentity(hostname)))
    ) {
      return [{ title: `${field} must not point back at this link service (${hostname}).`, field }];
    }
    return [];
  }
}

/** 0 and absent both mean "none". */
export function isSet(id: number | undefined): id is number {
  return id !== undefined && id !== 0;
}
