import { Type } from '@nestjs/common';
import { IntersectionType } from '@nestjs/swagger';
import { ArrayNotEmpty, ValidateBy, ValidationArguments } from 'class-validator';
import { BiolinkBlockType } from '@app/database';
import { SOCIAL_NETWORKS } from '@app/signatures';
import {
  RequiredFor,
  SettingChoice,
  SettingDays,
  SettingHandle,
  SettingHandlerIds,
  SettingInt,
  SettingText,
  SettingTime,
  SettingTimeZone,
  SettingUrl,
  Weekday,
} from './block-setting-rules';

/*
 * The settings of each block type: one class a type, its fields in the order a 400 lists their
 * problems, each with its rule and the value a new block starts with.
 */

export class LinkBlockSettings {
  @RequiredFor('link')
  @SettingText(128, { required: true })
  name: string | null = null;

  @RequiredFor('link')
  @SettingUrl({ required: true })
  location_url: string | null = null;
}

export const HEADING_TYPES = ['h1', 'h2', 'h3'] as const;

export class HeadingBlockSettings {
  @RequiredFor('heading')
  @SettingText(256, { required: true })
  text: string | null = null;

  @SettingChoice(HEADING_TYPES)
  heading_type: (typeof HEADING_TYPES)[number] = 'h2';
}

export class ParagraphBlockSettings {
  @RequiredFor('paragraph')
  @SettingText(4096, { required: true })
  text: string | null = null;
}

/** The picture itself arrives as the file part `image` (see the service). */
export class ImageBlockSettings {
  @SettingText(256)
  image_alt: string | null = null;

  @SettingUrl()
  location_url: string | null = null;
}

/** A handle for each network of `SOCIAL_NETWORKS`, all optional. */
export class SocialsBlockSettings {
  [network: string]: string | null;

  constructor() {
    for (const network of SOCIAL_NETWORKS) {
      this[network] = null;
    }
  }
}
for (const network of SOCIAL_NETWORKS) {
  SettingHandle()(SocialsBlockSettings.prototype, network);
}

/** The email, phone and contact collectors: a form whose sends become data records. */
export class CollectorBlockSettings {
  @SettingText(128)
  name: string | null = 'Send';

  @SettingText(256)
  title: string | null = null;

  @SettingText(2048)
  description: string | null = null;

  @SettingText(128)
  name_placeholder: string | null = 'Your name';

  @SettingText(128)
  email_placeholder: string | null = 'Email address';

  @SettingText(128)
  phone_placeholder: string | null = 'Phone number';

  @SettingText(128)
  message_placeholder: string | null = 'Message';

  @SettingText(1024)
  thank_you_message: string | null = 'Thank you!';

  @SettingUrl()
  thank_you_url: string | null = null;

  @SettingText(512)
  agreement_text: string | null = null;

  @SettingUrl()
  agreement_url: string | null = null;

  @SettingHandlerIds()
  notification_handlers_ids: number[] = [];
}

export const DURATION_TYPES = ['minutes', 'hours'] as const;

/** What an appointment calendar adds to a collector: its opening hours and slots. */
export class AppointmentHours {
  @SettingTimeZone()
  timezone = 'UTC';

  @SettingDays()
  days: Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri'];

  @SettingTime()
  start_time = '09:00';

  @SettingTime()
  end_time = '17:00';

  @SettingInt(1, 1440)
  duration_value = 30;

  @SettingChoice(DURATION_TYPES)
  duration_type: (typeof DURATION_TYPES)[number] = 'minutes';

  @SettingInt(1, 90)
  max_days_ahead = 14;

  @SettingInt(0, 43200)
  min_notice_minutes = 60;
}

/** A collector whose form books a slot: the collector's fields, then the opening hours. */
export class AppointmentCalendarBlockSettings extends IntersectionType(
  CollectorBlockSettings,
  AppointmentHours,
) {}

/** Checked on an appointment calendar's settings after the request, once each field is valid. */
export class AppointmentHoursOrder {
  @ValidateBy({
    name: 'endsAfterStart',
    validator: {
      validate: (end: unknown, { object }: ValidationArguments) =>
        String((object as AppointmentHours).start_time) < String(end),
      defaultMessage: () => 'end_time must be after start_time.',
    },
  })
  end_time!: string;

  @ArrayNotEmpty({ message: 'days must name at least one day.' })
  days!: Weekday[];
}

/** The settings class of each block type; a body's other fields are ignored. */
export const BLOCK_SETTINGS: Record<BiolinkBlockType, Type<object>> = {
  link: LinkBlockSettings,
  heading: HeadingBlockSettings,
  paragraph: ParagraphBlockSettings,
  image: ImageBlockSettings,
  socials: SocialsBlockSettings,
  email_collector: CollectorBlockSettings,
  phone_collector: CollectorBlockSettings,
  contact_collector: CollectorBlockSettings,
  appointment_calendar: AppointmentCalendarBlockSettings,
};
