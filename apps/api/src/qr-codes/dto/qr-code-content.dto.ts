import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsFormBoolean, normalizeHttpUrl, OptionalText } from '@app/common';
import { WIFI_ENCRYPTIONS } from '@app/qr';
import { DecimalString } from './form-number';
import { oneOf } from './one-of';

/** Content of type text. */
export class QrTextFields {
  @OptionalText(3000)
  text?: string;
}

/** Content of type url. */
export class QrUrlFields {
  // An http(s) address is stored as the URL parser writes it: plain ASCII (punycode host,
  // percent-encoded path and query), which every scanner reads the same; other text as it is.
  @OptionalText(2048)
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? (normalizeHttpUrl(value) ?? value) : value,
  )
  url?: string;
}

/** Content of type phone. */
export class QrPhoneFields {
  @OptionalText(32)
  phone?: string;
}

/** Content of type sms. */
export class QrSmsFields {
  @OptionalText(32)
  sms?: string;

  @OptionalText(160)
  sms_body?: string;
}

/** Content of type email. */
export class QrEmailFields {
  @OptionalText(360)
  email?: string;

  @OptionalText(256)
  email_subject?: string;

  @OptionalText(2048)
  email_body?: string;
}

/** Content of type whatsapp. */
export class QrWhatsappFields {
  @OptionalText(32)
  whatsapp?: string;

  @OptionalText(2048)
  whatsapp_body?: string;
}

/** Content of type facetime. */
export class QrFacetimeFields {
  @OptionalText(32)
  facetime?: string;
}

/** Content of type location: coordinates, or `location` verbatim. */
export class QrLocationFields {
  @DecimalString('-90', '90', '48.2082')
  location_latitude?: string;

  @DecimalString('-180', '180', '16.3738')
  location_longitude?: string;

  @ApiPropertyOptional({
    maxLength: 3000,
    description: 'The content as one string, used verbatim when no location_* field is sent',
  })
  @IsOptional()
  @IsString()
  @MaxLength(3000)
  location?: string;
}

/** Content of type wifi: the network, or `wifi` verbatim. */
export class QrWifiFields {
  @ApiPropertyOptional({ enum: WIFI_ENCRYPTIONS })
  @IsOptional()
  @IsIn(WIFI_ENCRYPTIONS, oneOf(WIFI_ENCRYPTIONS))
  wifi_encryption?: (typeof WIFI_ENCRYPTIONS)[number];

  @ApiPropertyOptional({ type: 'boolean', description: '0 or 1' })
  @IsOptional()
  @IsFormBoolean()
  wifi_is_hidden?: boolean;

  @OptionalText(128)
  wifi_ssid?: string;

  @OptionalText(128)
  wifi_password?: string;

  @ApiPropertyOptional({
    maxLength: 3000,
    description: 'The content as one string, used verbatim when no wifi_* field is sent',
  })
  @IsOptional()
  @IsString()
  @MaxLength(3000)
  wifi?: string;
}
