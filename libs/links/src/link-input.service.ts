import { Injectable } from '@nestjs/common';
import { Actor } from '@app/auth';
import { AppError, Problem, UploadedDiskFile } from '@app/common';
import {
  BiolinkPageSettings,
  defaultBiolinkSettings,
  defaultLinkSettings,
  LinkChanges,
  LinkEntity,
  LinkSettings,
  parseLinkSettings,
} from '@app/database';
import { biolinkContrastProblems } from './biolink-contrast';
import { CreateLinkDto } from './dto/create-link.dto';
import { UpdateLinkDto } from './dto/update-link.dto';
import { isSet, LinkChecks } from './link-checks.service';
import { hashLinkPassword } from './link-password';
import { ChatTarget, chatTarget, isTargetingType, parseTargeting, whatsappUrl } from './link-rules';
import { readSchedule, ScheduleWindow } from './link-schedule';
import { checkSiteUpload } from './site-upload';

/** A create body, checked: the new row's values but for the owner, the clock and the site. */
export interface NewLinkInput {
  type: NonNullable<CreateLinkDto['type']>;
  domainId: number;
  projectId: number | null;
  splashPageId: number | null;
  alias: string;
  location: string | null;
  settings: LinkSettings;
  passwordHash: string | null;
  window: ScheduleWindow;
}

/** An update body, checked against the row as read: the columns it writes. */
export interface PlannedUpdate {
  changes: LinkChanges;
  settings: LinkSettings;
  domainId: number;
  alias: string;
}

/**
 * Turns create and update bodies into checked values. Each check returns its problems; the two
 * entry points collect them in the order of the fields and throw one 400 that names them all.
 */
@Injectable()
export class LinkInputService {
  constructor(private readonly checks: LinkChecks) {}

  /** `checks` answers the database questions; a batch passes ones that batch them (bulk/). */
  async validateCreate(
    actor: Actor,
    dto: CreateLinkDto,
    upload: UploadedDiskFile | undefined,
    checks: LinkChecks = this.checks,
  ): Promise<NewLinkInput> {
    const type = dto.type ?? 'link';
    const domainId = dto.domain_id ?? 0;
    const problems = [
      ...checkSiteUpload(type, upload, true),
      ...(await checks.referenceProblems(actor, domainId, dto)),
    ];
    const settings = defaultLinkSettings();
    let location: string | null = null;
    if (type === 'walink') {
      const { chat, problems: chatProblems } = chatTarget(
        dto.phone_number,
        dto.message,
        dto.location_url,
      );
      problems.push(...chatProblems);
      location = chat ? storeChat(settings, chat) : null;
    } else if (type === 'static') {
      settings.name = dto.name;
    } else if (type === 'biolink') {
      settings.name = dto.name ?? '';
      settings.biolink = applyBiolink(defaultBiolinkSettings(), dto);
      problems.push(...biolinkContrastProblems(settings.biolink, dto));
    } else {
      location = dto.location_url ?? null;
      problems.push(...(await checks.selfLinkProblems(location, 'location_url')));
    }
    const schedule = await this.applySettings(settings, dto, { start: null, end: null }, checks);
    problems.push(...schedule.problems);
    if (dto.url) {
      problems.push(...(await checks.aliasProblems(dto.url, domainId, undefined)));
    }
    throwIfAny(problems);
    return {
      type,
      domainId,
      projectId: optionalId(dto.project_id),
      splashPageId: optionalId(dto.splash_page_id),
      alias: dto.url || (await checks.freeRandomAlias(domainId)),
      location,
      settings,
      passwordHash: dto.password ? await hashLinkPassword(dto.password) : null,
      window: schedule.window,
    };
  }

  /** The columns an update writes, computed from the row as read; throws a 400 for bad input. */
  async validateUpdate(
    actor: Actor,
    link: LinkEntity,
    dto: UpdateLinkDto,
    upload: UploadedDiskFile | undefined,
  ): Promise<PlannedUpdate> {
    const problems = [
      ...checkSiteUpload(link.type, upload, false),
      ...(await this.checks.referenceProblems(actor, dto.domain_id, dto)),
    ];
    const changes: LinkChanges = {};
    const domainId = dto.domain_id !== undefined ? dto.domain_id : link.domain_id;
    if (dto.project_id !== undefined) changes.project_id = optionalId(dto.project_id);
    if (dto.splash_page_id !== undefined) changes.splash_page_id = optionalId(dto.splash_page_id);
    const settings = parseLinkSettings(link.settings);
    if (link.type === 'walink') {
      if (
        dto.phone_number !== undefined ||
        dto.message !== undefined ||
        dto.location_url !== undefined
      ) {
        const { chat, problems: chatProblems } = chatTarget(
          dto.phone_number ?? (dto.location_url === undefined ? settings.phone_number : undefined),
          dto.message ?? (dto.location_url === undefined ? settings.message : undefined),
          dto.location_url,
        );
        problems.push(...chatProblems);
        if (chat) changes.location_url = storeChat(settings, chat);
      }
    } else if (link.type === 'static') {
      if (dto.name !== undefined) settings.name = dto.name;
    } else if (link.type === 'biolink') {
      if (dto.name !== undefined) settings.name = dto.name;
      settings.biolink = applyBiolink(settings.biolink ?? defaultBiolinkSettings(), dto);
      problems.push(...biolinkContrastProblems(settings.biolink, dto));
    } else if (dto.location_url !== undefined) {
      problems.push(...(await this.checks.selfLinkProblems(dto.location_url, 'location_url')));
      changes.location_url = dto.location_url;
    }
    const current = { start: link.start_date, end: link.end_date };
    const { window, problems: settingsProblems } = await this.applySettings(settings, dto, current);
    problems.push(...settingsProblems);
    const alias = dto.url !== undefined && dto.url !== '' ? dto.url : link.url;
    if (alias !== link.url || domainId !== link.domain_id) {
      problems.push(...(await this.checks.aliasProblems(alias, domainId, link.id)));
    }
    throwIfAny(problems);
    // Columns are written only when they change, so that a concurrent update of them is kept.
    if (alias !== link.url) changes.url = alias;
    if (domainId !== link.domain_id) changes.domain_id = domainId;
    if (window.start?.getTime() !== link.start_date?.getTime()) changes.start_date = window.start;
    if (window.end?.getTime() !== link.end_date?.getTime()) changes.end_date = window.end;
    changes.settings = JSON.stringify(settings);
    if (dto.is_enabled !== undefined) {
      changes.is_enabled = dto.is_enabled;
    }
    if (dto.password !== undefined) {
      changes.password_hash = dto.password === '' ? null : await hashLinkPassword(dto.password);
    }
    return { changes, settings, domainId, alias };
  }

  /** Applies the redirect settings of a body onto `settings`; returns the schedule window. */
  private async applySettings(
    settings: LinkSettings,
    dto: UpdateLinkDto,
    current: ScheduleWindow,
    checks: LinkChecks = this.checks,
  ): Promise<{ window: ScheduleWindow; problems: Problem[] }> {
    const problems: Problem[] = [];
    if (dto.http_status_code !== undefined) settings.http_status_code = dto.http_status_code;
    if (dto.sensitive_content !== undefined) settings.sensitive_content = dto.sensitive_content;
    if (dto.forward_query_parameters_is_enabled !== undefined) {
      settings.forward_query_parameters_is_enabled = dto.forward_query_parameters_is_enabled;
    }
    if (dto.clicks_limit !== undefined) settings.clicks_limit = dto.clicks_limit || null;
    if (dto.expiration_url !== undefined) {
      settings.expiration_url = dto.expiration_url || null;
      problems.push(...(await checks.selfLinkProblems(settings.expiration_url, 'expiration_url')));
    }
    if (dto.utm_source !== undefined) settings.utm.source = dto.utm_source || null;
    if (dto.utm_medium !== undefined) settings.utm.medium = dto.utm_medium || null;
    if (dto.utm_campaign !== undefined) settings.utm.campaign = dto.utm_campaign || null;
    problems.push(...(await this.applyTargeting(settings, dto, checks)));
    const schedule = readSchedule(settings, dto, current);
    return { window: schedule.window, problems: [...problems, ...schedule.problems] };
  }

  private async applyTargeting(
    settings: LinkSettings,
    dto: UpdateLinkDto,
    checks: LinkChecks,
  ): Promise<Problem[]> {
    const type = dto.targeting_type;
    if (type === undefined) {
      return [];
    }
    if (type === '' || type === 'false') {
      settings.targeting_type = null;
      settings.targeting = [];
      return [];
    }
    if (!isTargetingType(type)) {
      return [];
    }
    const { rules, problems } = parseTargeting(type, dto as Record<string, string[] | undefined>);
    settings.targeting_type = type;
    settings.targeting = rules;
    for (const rule of rules) {
      problems.push(...(await checks.selfLinkProblems(rule.value, `targeting_${type}_value`)));
    }
    return problems;
  }
}

/** The page settings of a bio page with the fields a body sends; an empty text clears one. */
function applyBiolink(current: BiolinkPageSettings, dto: UpdateLinkDto): BiolinkPageSettings {
  const text = (value: string | undefined, was: string | null): string | null =>
    value === undefined ? was : value || null;
  return {
    ...current,
    title: text(dto.title, current.title),
    description: text(dto.description, current.description),
    background_color: dto.background_color ?? current.background_color,
    background_color_two:
      dto.background_color_two !== undefined
        ? dto.background_color_two
        : current.background_color_two,
    text_color: dto.text_color ?? current.text_color,
    button_color: dto.button_color ?? current.button_color,
    button_text_color: dto.button_text_color ?? current.button_text_color,
    font: dto.font ?? current.font,
    seo_title: text(dto.seo_title, current.seo_title),
    seo_description: text(dto.seo_description, current.seo_description),
    seo_noindex: dto.seo_noindex ?? current.seo_noindex,
  };
}

/** Stores a walink's chat in its settings; returns the wa.me address it redirects to. */
function storeChat(settings: LinkSettings, chat: ChatTarget): string {
  settings.phone_number = chat.phoneNumber;
  settings.message = chat.message;
  return whatsappUrl(chat.phoneNumber, chat.message);
}

/** The id a body names, null for none. */
function optionalId(id: number | undefined): number | null {
  return isSet(id) ? id : null;
}

function throwIfAny(problems: readonly Problem[]): void {
  if (problems.length > 0) {
    throw new AppError('validation_failed', problems);
  }
}
