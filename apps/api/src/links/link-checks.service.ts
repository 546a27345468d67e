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

/** The checks of link input that need the database or the service's own address. */
@Injectable()
export class LinkChecks {
  private readonly mainServer: string;

  constructor(
    private readonly links: LinksRepository,
    private readonly domains: DomainsRepository,
    private readonly projects: ProjectsRepository,
    private readonly splashPages: SplashPagesRepository,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'appUrl'>,
  ) {
    this.mainServer = serverIdentity(new URL(config.appUrl));
  }

  /** The domain, project and splash page a body names must be the owner's (0 = none). */
  async referenceProblems(
    actor: Actor,
    domainId: number | undefined,
    { project_id: projectId, splash_page_id: splashPageId }: UpdateLinkDto,
  ): Promise<Problem[]> {
    const problems: Problem[] = [];
    if (isSet(domainId) && !(await this.domains.findOwned(actor.ownerId, domainId))) {
      problems.push({
        title: 'domain_id is not one of your domains (0 = the main domain).',
        field: 'domain_id',
        code: 'invalid_reference',
      });
    }
    if (isSet(projectId) && !(await this.projects.findOwned(actor.ownerId, projectId))) {
      problems.push({
        title: 'project_id is not one of your projects.',
        field: 'project_id',
        code: 'invalid_reference',
      });
    }
    if (isSet(splashPageId) && !(await this.splashPages.findOwned(actor.ownerId, splashPageId))) {
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
    if (await this.links.aliasTaken(domainId, alias, exceptId)) {
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
      if (!isReservedAlias(alias) && !(await this.links.aliasTaken(domainId, alias))) {
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
      (await this.domains.findEnabledByHost(hostIdentity(hostname)))
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
