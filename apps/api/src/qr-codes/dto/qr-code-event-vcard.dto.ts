import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { OptionalText, OptionalTextList } from '@app/common';

/** Content of type event (a calendar entry). */
export class QrEventFields {
  @OptionalText(128)
  event?: string;

  @OptionalText(128)
  event_location?: string;

  @OptionalText(1024)
  event_url?: string;

  @OptionalText(256)
  event_note?: string;

  @OptionalText(64)
  event_timezone?: string;

  @OptionalText(19)
  event_start_datetime?: string;

  @OptionalText(19)
  event_end_datetime?: string;

  @OptionalText(19)
  event_first_alert_datetime?: string;

  @OptionalText(19)
  event_second_alert_datetime?: string;
}

/** Content of type vcard (a contact card), or `vcard` verbatim. */
export class QrVcardFields {
  @OptionalText(64)
  vcard_first_name?: string;

  @OptionalText(64)
  vcard_last_name?: string;

  @OptionalText(64)
  vcard_company?: string;

  @OptionalText(64)
  vcard_job_title?: string;

  @OptionalText(320)
  vcard_email?: string;

  @OptionalText(1024)
  vcard_url?: string;

  @OptionalText(16)
  vcard_birthday?: string;

  @OptionalText(128)
  vcard_street?: string;

  @OptionalText(64)
  vcard_city?: string;

  @OptionalText(32)
  vcard_zip?: string;

  @OptionalText(32)
  vcard_region?: string;

  @OptionalText(32)
  vcard_country?: string;

  @OptionalText(256)
  vcard_note?: string;

  @OptionalTextList(20, 32)
  vcard_phone_number_label?: string[];

  @OptionalTextList(20, 32)
  vcard_phone_number_value?: string[];

  @OptionalTextList(20, 64)
  vcard_social_label?: string[];

  @OptionalTextList(20, 1024)
  vcard_social_value?: string[];

  @ApiPropertyOptional({
    maxLength: 3000,
    description: 'The content as one string, used verbatim when no vcard_* field is sent',
  })
  @IsOptional()
  @IsString()
  @MaxLength(3000)
  vcard?: string;
}
