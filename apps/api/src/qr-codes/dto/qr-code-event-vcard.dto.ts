import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { OptionalTextList } from '@app/common';
import { ContentText } from './content-text';

/** Content of type event (a calendar entry). */
export class QrEventFields {
  @ContentText(128)
  event?: string;

  @ContentText(128)
  event_location?: string;

  @ContentText(1024)
  event_url?: string;

  @ContentText(256)
  event_note?: string;

  @ContentText(64)
  event_timezone?: string;

  @ContentText(19)
  event_start_datetime?: string;

  @ContentText(19)
  event_end_datetime?: string;

  @ContentText(19)
  event_first_alert_datetime?: string;

  @ContentText(19)
  event_second_alert_datetime?: string;
}

/** Content of type vcard (a contact card), or `vcard` verbatim. */
export class QrVcardFields {
  @ContentText(64)
  vcard_first_name?: string;

  @ContentText(64)
  vcard_last_name?: string;

  @ContentText(64)
  vcard_company?: string;

  @ContentText(64)
  vcard_job_title?: string;

  @ContentText(320)
  vcard_email?: string;

  @ContentText(1024)
  vcard_url?: string;

  @ContentText(16)
  vcard_birthday?: string;

  @ContentText(128)
  vcard_street?: string;

  @ContentText(64)
  vcard_city?: string;

  @ContentText(32)
  vcard_zip?: string;

  @ContentText(32)
  vcard_region?: string;

  @ContentText(32)
  vcard_country?: string;

  @ContentText(256)
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
