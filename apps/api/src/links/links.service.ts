import { Inject, Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Actor } from '@app/auth';
import {
  AppError,
  Clock,
  LINK_CHANGED,
  LinkChangedEvent,
  ListQuery,
  NotFoundError,
  Paginated,
  parseDateTime,
  Problem,
  UploadedDiskFile,
} from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  defaultLinkSettings,
  DomainEntity,
  DomainsRepository,
  LinkChanges,
  LinkEntity,
  LinkSettings,
  LinksRepository,
  parseLinkSettings,
  ProjectsRepository,
  SplashPagesRepository,
  StaticSiteSettings,
} from '@app/database';
import { isReservedAlias, randomAlias } from './alias';
import { CreateLinkDto } from './dto/create-link.dto';
import { UpdateLinkDto } from './dto/update-link.dto';
import { hostIdentity, serverIdentity } from './host-identity';
import { hashLinkPassword } from './link-password';
import { LinkResponse, toLinkResponse } from './link.mapper';
import { isTargetingType, parseTargeting, parseWhatsappUrl, whatsappUrl } from './link-rules';
import { StaticSites } from './static/static-sites.service';

const RANDOM_ALIAS_ATTEMPTS = 8;
/** Writes of one update tried before it gives up because the link keeps changing. */
const UPDATE_ATTEMPTS = 3;

@Injectable()
export class LinksService {
  private readonly mainServer: string;

  constructor(
    private readonly links: LinksRepository,
    private readonly domains: DomainsRepository,
    private readonly projects: ProjectsRepository,
    private readonly splashPages: SplashPagesRepository,
    private readonly events: EventEmitter2,
    private readonly clock: Clock,
    private readonly sites: StaticSites,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.mainServer = serverIdentity(new URL(config.appUrl));
  }

  async list(actor: Actor, query: ListQuery): Promise<Paginated<LinkResponse>> {
    const page = await this.links.listOwned(actor.ownerId, query);
    const bases = await this.baseUrls(actor, page.items);
    return page.map((link) =>
      toLinkResponse(link, bases.get(link.domain_id) ?? this.config.appUrl),
    );
  }

  async get(actor: Actor, id: number): Promise<LinkResponse> {
    const link = await this.findOwned(actor, id);
    const bases = await this.baseUrls(actor, [link]);
    return toLinkResponse(link, bases.get(link.domain_id) ?? this.config.appUrl);
  }

  /** Static sites answer with the whole link (seed operation 15), other types with the id. */
  async create(
    actor: Actor,
    dto: CreateLinkDto,
    upload?: UploadedDiskFile,
  ): Promise<{ id: number } | LinkResponse> {
    const type = dto.type ?? 'link';
    const problems: Problem[] = [];
    StaticSites.checkUpload(type, upload, true, problems);
    const domainId = await this.checkDomain(actor, dto.domain_id ?? 0, problems);
    const projectId = await this.checkProject(actor, dto.project_id, problems);
    const splashPageId = await this.checkSplashPage(actor, dto.splash_page_id, problems);
    const settings = defaultLinkSettings();
    let location: string | null = null;
    if (type === 'walink') {
      const chat = this.chatTarget(dto.phone_number, dto.message, dto.location_url, problems);
      if (chat) {
        settings.phone_number = chat.phoneNumber;
        settings.message = chat.message;
        location = whatsappUrl(chat.phoneNumber, chat.message);
      }
    } else if (type === 'static') {
      settings.name = dto.name;
    } else {
      location = dto.location_url ?? null;
      await this.checkNotSelf(location, 'location_url', problems);
    }
    const dates = await this.applySettings(settings, dto, { start: null, end: null }, problems);
    if (dto.url) {
      await this.checkAlias(dto.url, domainId, undefined, problems);
    }
    if (problems.length > 0) {
      throw new AppError('validation_failed', problems);
    }
    const alias = dto.url || (await this.freeRandomAlias(domainId));
    const passwordHash = dto.password ? await hashLinkPassword(dto.password) : null;
    // The files are published first; the row that points at them is written last.
    const site = upload ? await this.sites.publish(upload) : undefined;
    settings.static_site = site;
    const id = await this.sites.pointAt(site, true, () =>
      this.links.insert({
        user_id: actor.ownerId,
        project_id: projectId ?? null,
        domain_id: domainId,
        splash_page_id: splashPageId ?? null,
        type,
        url: alias,
        location_url: location,
        settings: JSON.stringify(settings),
        password_hash: passwordHash,
        clicks: 0,
        is_enabled: dto.is_enabled ?? true,
        start_date: dates.start,
        end_date: dates.end,
        datetime: this.clock.now(),
        last_datetime: null,
      }),
    );
    this.emitChanged({ linkId: id, domainId, alias });
    return site ? this.get(actor, id) : { id };
  }

  /**
   * Every write is conditional on the settings read (see LinksRepository.updateOwnedIf): when
   * another update came in between, the changes are computed again on the new row, a few times
   * before giving up with 409. A new file is published once, before the first write; it is removed
   * again when no write points the link at it (a refused update, or a link deleted meanwhile).
   */
  async update(
    actor: Actor,
    id: number,
    dto: UpdateLinkDto,
    upload?: UploadedDiskFile,
  ): Promise<{ id: number }> {
    let site: StaticSiteSettings | undefined;
    try {
      for (let attempt = 1; attempt <= UPDATE_ATTEMPTS; attempt += 1) {
        const link = await this.findOwned(actor, id);
        const planned = await this.planUpdate(actor, link, dto, upload);
        const previousSite = planned.settings.static_site;
        if (upload && !site) {
          site = await this.publishFor(actor, id, upload, previousSite?.folder);
        }
        if (site) {
          planned.settings.static_site = site;
          planned.changes.settings = JSON.stringify(planned.settings);
        }
        // One UPDATE switches visitors from the old version to the new one.
        if (await this.links.updateOwnedIf(actor.ownerId, id, link.settings, planned.changes)) {
          this.emitChanged({
            linkId: id,
            domainId: planned.domainId,
            alias: planned.alias,
            previous: { domainId: link.domain_id, alias: link.url },
          });
          if (site && previousSite && previousSite.version !== site.version) {
            await this.sites.retire(previousSite);
          }
          return { id };
        }
      }
      await this.findOwned(actor, id);
      throw new AppError(
        'conflict',
        'The link was changed by other requests while this one was being applied; send it again.',
      );
    } catch (error) {
      if (site) {
        // Nothing points at the new version: the update was refused, or the link is gone.
        await this.sites.remove(site);
      }
      throw error;
    }
  }

  /**
   * Publishes a new version of a site. A delete of the link can remove the site's folder under
   * it: that is the link's 404, not a server fault.
   */
  private async publishFor(
    actor: Actor,
    id: number,
    upload: UploadedDiskFile,
    folder: string | undefined,
  ): Promise<StaticSiteSettings> {
    try {
      return await this.sites.publish(upload, folder);
    } catch (error) {
      if (!(error instanceof AppError)) {
        await this.findOwned(actor, id);
      }
      throw error;
    }
  }

  /** The columns an update writes, computed from the row as read; throws a 400 for bad input. */
  private async planUpdate(
    actor: Actor,
    link: LinkEntity,
    dto: UpdateLinkDto,
    upload: UploadedDiskFile | undefined,
  ): Promise<{ changes: LinkChanges; settings: LinkSettings; domainId: number; alias: string }> {
    const problems: Problem[] = [];
    StaticSites.checkUpload(link.type, upload, false, problems);
    const changes: LinkChanges = {};
    const domainId =
      dto.domain_id !== undefined
        ? await this.checkDomain(actor, dto.domain_id, problems)
        : link.domain_id;
    if (dto.project_id !== undefined) {
      changes.project_id = (await this.checkProject(actor, dto.project_id, problems)) ?? null;
    }
    if (dto.splash_page_id !== undefined) {
      changes.splash_page_id =
        (await this.checkSplashPage(actor, dto.splash_page_id, problems)) ?? null;
    }
    const settings = parseLinkSettings(link.settings);
    if (link.type === 'walink') {
      if (
        dto.phone_number !== undefined ||
        dto.message !== undefined ||
        dto.location_url !== undefined
      ) {
        const chat = this.chatTarget(
          dto.phone_number ?? (dto.location_url === undefined ? settings.phone_number : undefined),
          dto.message ?? (dto.location_url === undefined ? settings.message : undefined),
          dto.location_url,
          problems,
        );
        if (chat) {
          settings.phone_number = chat.phoneNumber;
          settings.message = chat.message;
          changes.location_url = whatsappUrl(chat.phoneNumber, chat.message);
        }
      }
    } else if (link.type === 'static') {
      if (dto.name !== undefined) settings.name = dto.name;
    } else if (dto.location_url !== undefined) {
      await this.checkNotSelf(dto.location_url, 'location_url', problems);
      changes.location_url = dto.location_url;
    }
    const dates = await this.applySettings(
      settings,
      dto,
      { start: link.start_date, end: link.end_date },
      problems,
    );
    const alias = dto.url !== undefined && dto.url !== '' ? dto.url : link.url;
    if (alias !== link.url || domainId !== link.domain_id) {
      await this.checkAlias(alias, domainId, link.id, problems);
    }
    if (problems.length > 0) {
      throw new AppError('validation_failed', problems);
    }
    // Columns are written only when they change, so that a concurrent update of them is kept.
    if (alias !== link.url) changes.url = alias;
    if (domainId !== link.domain_id) changes.domain_id = domainId;
    if (dates.start?.getTime() !== link.start_date?.getTime()) changes.start_date = dates.start;
    if (dates.end?.getTime() !== link.end_date?.getTime()) changes.end_date = dates.end;
    changes.settings = JSON.stringify(settings);
    if (dto.is_enabled !== undefined) {
      changes.is_enabled = dto.is_enabled;
    }
    if (dto.password !== undefined) {
      changes.password_hash = dto.password === '' ? null : await hashLinkPassword(dto.password);
    }
    changes.last_datetime = this.clock.now();
    return { changes, settings, domainId, alias };
  }

  async remove(actor: Actor, id: number): Promise<{ id: number }> {
    const link = await this.findOwned(actor, id);
    if (!(await this.links.deleteOwned(actor.ownerId, id))) {
      throw new NotFoundError('link_not_found', 'link');
    }
    this.emitChanged({ linkId: id, domainId: link.domain_id, alias: link.url });
    const site = parseLinkSettings(link.settings).static_site;
    if (site) {
      // At once: a deleted link serves nothing. What a concurrent replace writes into the folder
      // afterwards is removed by that replace, or by the sweeper.
      await this.sites.remove(site, true);
    }
    return { id };
  }

  private emitChanged(event: LinkChangedEvent): void {
    this.events.emit(LINK_CHANGED, event);
  }

  private async findOwned(actor: Actor, id: number): Promise<LinkEntity> {
    const link = await this.links.findOwned(actor.ownerId, id);
    if (!link) {
      throw new NotFoundError('link_not_found', 'link');
    }
    return link;
  }

  /** Domain roots of the given links, by domain id (0 = APP_URL). */
  private async baseUrls(actor: Actor, links: readonly LinkEntity[]): Promise<Map<number, string>> {
    const bases = new Map<number, string>([[0, this.config.appUrl]]);
    for (const domainId of new Set(links.map((l) => l.domain_id))) {
      if (domainId !== 0) {
        const domain = await this.domains.findOwned(actor.ownerId, domainId);
        if (domain) {
          bases.set(domainId, domainRoot(domain));
        }
      }
    }
    return bases;
  }

  private async checkDomain(actor: Actor, domainId: number, problems: Problem[]): Promise<number> {
    if (domainId !== 0 && !(await this.domains.findOwned(actor.ownerId, domainId))) {
      problems.push({
        title: 'domain_id is not one of your domains (0 = the main domain).',
        field: 'domain_id',
        code: 'invalid_reference',
      });
    }
    return domainId;
  }

  private async checkProject(
    actor: Actor,
    projectId: number | undefined,
    problems: Problem[],
  ): Promise<number | undefined> {
    if (projectId === undefined || projectId === 0) {
      return undefined;
    }
    if (!(await this.projects.findOwned(actor.ownerId, projectId))) {
      problems.push({
        title: 'project_id is not one of your projects.',
        field: 'project_id',
        code: 'invalid_reference',
      });
    }
    return projectId;
  }

  private async checkSplashPage(
    actor: Actor,
    splashPageId: number | undefined,
    problems: Problem[],
  ): Promise<number | undefined> {
    if (splashPageId === undefined || splashPageId === 0) {
      return undefined;
    }
    if (!(await this.splashPages.findOwned(actor.ownerId, splashPageId))) {
      problems.push({
        title: 'splash_page_id is not one of your splash pages.',
        field: 'splash_page_id',
        code: 'invalid_reference',
      });
    }
    return splashPageId;
  }

  private async checkAlias(
    alias: string,
    domainId: number,
    exceptId: number | undefined,
    problems: Problem[],
  ): Promise<void> {
    if (isReservedAlias(alias)) {
      problems.push({
        title: `The alias "${alias}" is reserved by the service; choose another.`,
        field: 'url',
        code: 'alias_reserved',
      });
    } else if (await this.links.aliasTaken(domainId, alias, exceptId)) {
      problems.push({
        title: `The alias "${alias}" is already taken on this domain.`,
        field: 'url',
        code: 'alias_taken',
      });
    }
  }

  private async freeRandomAlias(domainId: number): Promise<string> {
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
  private async checkNotSelf(
    url: string | null,
    field: string,
    problems: Problem[],
  ): Promise<void> {
    if (url === null) {
      return;
    }
    const parsed = new URL(url);
    const hostname = parsed.hostname.replace(/\.+$/, '');
    if (
      serverIdentity(parsed) === this.mainServer ||
      (await this.domains.findEnabledByHost(hostIdentity(hostname)))
    ) {
      problems.push({
        title: `${field} must not point back at this link service (${hostname}).`,
        field,
      });
    }
  }

  private chatTarget(
    phoneNumber: string | undefined,
    message: string | null | undefined,
    locationUrl: string | undefined,
    problems: Problem[],
  ): { phoneNumber: string; message: string | null } | null {
    if (locationUrl !== undefined && phoneNumber === undefined) {
      const parsed = parseWhatsappUrl(locationUrl);
      if (!parsed) {
        problems.push({
          title: 'location_url of a walink must be https://wa.me/<number>?text=<message>.',
          field: 'location_url',
        });
      }
      return parsed;
    }
    if (!phoneNumber) {
      problems.push({ title: 'phone_number is required.', field: 'phone_number' });
      return null;
    }
    return { phoneNumber, message: message || null };
  }

  /** Applies the redirect settings of a body onto `settings`; returns the schedule window. */
  private async applySettings(
    settings: LinkSettings,
    dto: UpdateLinkDto,
    current: { start: Date | null; end: Date | null },
    problems: Problem[],
  ): Promise<{ start: Date | null; end: Date | null }> {
    if (dto.http_status_code !== undefined) settings.http_status_code = dto.http_status_code;
    if (dto.sensitive_content !== undefined) settings.sensitive_content = dto.sensitive_content;
    if (dto.forward_query_parameters_is_enabled !== undefined) {
      settings.forward_query_parameters_is_enabled = dto.forward_query_parameters_is_enabled;
    }
    if (dto.clicks_limit !== undefined) settings.clicks_limit = dto.clicks_limit || null;
    if (dto.expiration_url !== undefined) {
      settings.expiration_url = dto.expiration_url || null;
      await this.checkNotSelf(settings.expiration_url, 'expiration_url', problems);
    }
    if (dto.utm_source !== undefined) settings.utm.source = dto.utm_source || null;
    if (dto.utm_medium !== undefined) settings.utm.medium = dto.utm_medium || null;
    if (dto.utm_campaign !== undefined) settings.utm.campaign = dto.utm_campaign || null;

    if (dto.targeting_type !== undefined) {
      if (dto.targeting_type === '' || dto.targeting_type === 'false') {
        settings.targeting_type = null;
        settings.targeting = [];
      } else if (isTargetingType(dto.targeting_type)) {
        settings.targeting_type = dto.targeting_type;
        settings.targeting = parseTargeting(
          dto.targeting_type,
          dto as Record<string, string[] | undefined>,
          problems,
        );
        for (const rule of settings.targeting) {
          await this.checkNotSelf(rule.value, `targeting_${dto.targeting_type}_value`, problems);
        }
      }
    }

    if (dto.schedule !== undefined) settings.schedule = dto.schedule;
    let { start, end } = current;
    if (dto.start_date !== undefined)
      start = this.parseDate(dto.start_date, 'start_date', problems);
    if (dto.end_date !== undefined) end = this.parseDate(dto.end_date, 'end_date', problems);
    if (!settings.schedule) {
      return { start: null, end: null };
    }
    if (start === null && end === null) {
      problems.push({ title: 'schedule needs start_date, end_date or both.', field: 'start_date' });
    }
    if (start !== null && end !== null && end <= start) {
      problems.push({ title: 'end_date must be after start_date.', field: 'end_date' });
    }
    return { start, end };
  }

  private parseDate(value: string, field: string, problems: Problem[]): Date | null {
    if (value === '') {
      return null;
    }
    const date = parseDateTime(value);
    if (date === null) {
      problems.push({ title: `${field} is not a real date and time (Y-m-d H:i:s).`, field });
    }
    return date;
  }
}

/** The root URL of a custom domain, e.g. `https://go.example.com`. */
export function domainRoot(domain: Pick<DomainEntity, 'scheme' | 'host'>): string {
  return `${domain.scheme}${domain.host}`;
}
