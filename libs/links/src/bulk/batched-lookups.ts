import { Injectable } from '@nestjs/common';
import {
  DomainsRepository,
  LinksRepository,
  OwnedRepository,
  OwnedEntity,
  ProjectsRepository,
  SplashPagesRepository,
} from '@app/database';
import { LinkLookups } from '../link-checks.service';
import { BatchLoader } from './batch-loader';

/** An owner and an id, or a domain and an alias, as one key. */
const pair = (a: number, b: string | number): string => `${a}/${b}`;
const split = (key: string): [number, string] => {
  const at = key.indexOf('/');
  return [Number(key.slice(0, at)), key.slice(at + 1)];
};

/** Groups keys by their first part, for one query per group. */
function grouped(keys: readonly string[]): Map<number, string[]> {
  const groups = new Map<number, string[]>();
  for (const key of keys) {
    const [first, second] = split(key);
    groups.set(first, [...(groups.get(first) ?? []), second]);
  }
  return groups;
}

/**
 * The database questions of the link checks, batched: a thousand links validated together cost a
 * few queries per kind of question instead of a few per link (see LinkChecks.withLookups).
 */
@Injectable()
export class BatchedLinkLookups {
  constructor(
    private readonly links: LinksRepository,
    private readonly domains: DomainsRepository,
    private readonly projects: ProjectsRepository,
    private readonly splashPages: SplashPagesRepository,
  ) {}

  /** Fresh lookups for one batch (answers are cached for as long as the batch runs). */
  create(): LinkLookups {
    const owned = <E extends OwnedEntity>(repo: OwnedRepository<E>) =>
      new BatchLoader<string, boolean>(async (keys) => {
        const found = new Map<string, boolean>();
        for (const [ownerId, ids] of grouped(keys)) {
          const mine = await repo.ownedIds(ownerId, ids.map(Number));
          mine.forEach((id) => found.set(pair(ownerId, id), true));
        }
        return found;
      }, false);
    const domains = owned(this.domains);
    const projects = owned(this.projects);
    const splashPages = owned(this.splashPages);
    const aliases = new BatchLoader<string, number | null>(async (keys) => {
      const found = new Map<string, number>();
      for (const [domainId, names] of grouped(keys)) {
        const links = await this.links.findByAliases(domainId, names);
        links.forEach((link) => found.set(pair(domainId, link.url), link.id));
      }
      return found;
    }, null);
    const hosts = new BatchLoader<string, boolean>(async (keys) => {
      const enabled = await this.domains.enabledHosts(keys);
      return new Map([...enabled].map((host) => [host, true]));
    }, false);
    return {
      ownsDomain: (ownerId, id) => domains.load(pair(ownerId, id)),
      ownsProject: (ownerId, id) => projects.load(pair(ownerId, id)),
      ownsSplashPage: (ownerId, id) => splashPages.load(pair(ownerId, id)),
      aliasTaken: async (domainId, alias, exceptId) => {
        const id = await aliases.load(pair(domainId, alias));
        return id !== null && id !== exceptId;
      },
      isDomainHost: (host) => hosts.load(host),
    };
  }
}
