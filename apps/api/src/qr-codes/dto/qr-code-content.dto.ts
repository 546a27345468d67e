import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsFormBoolean, IsHttpUrl } from '@app/common';
import { WIFI_ENCRYPTIONS } from '@app/qr';
import { ContentText } from './content-text';
import { DecimalString } from './form-number';
import { oneOf } from './one-of';

/** Content of type text. */
export class QrTextFields {
  @ContentText(3000)
  text?: string;
}

/** Content of type url. */
export class QrUrlFields {
  // An http(s) URL with a host, stored as a browser resolves it (IsHttpUrl: punycode host,
  // percent-encoded path and query, plain ASCII that every scanner reads the same), as links are.
  // Anything else is refused: `javascript:` and `data:` URLs run or show what a scanner's browser
  // should not, and `example.com/menu` has no scheme to open it with; guessing https:// would
  // encode an address the user did not write (a link's destination is refused the same way).
  @ApiPropertyOptional({
    maxLength: 2048,
    description: 'An http:// or https:// URL with a host. Required for type url.',
    example: 'https://example.com/menu',
  })
  @IsOptional()
  @IsHttpUrl(2048)
  url?: string;
}

/** Content of type phone. */
export class QrPhoneFields {
  @ContentText(32)
  phone?: string;
}

/** Content of type sms. */
export class QrSmsFields {
  @ContentText(32)
  sms?: string;

  @ContentText(160)
  sms_body?: string;
}

/** Content of type email. */
export class QrEmailFields {
  @ContentText(360)
  email?: string;

  @ContentText(256)
  email_subject?: string;

  @ContentText(2048)
  email_body?: string;
}

/** Content of type whatsapp. */
export class QrWhatsappFields {
  @ContentText(32)
  whatsapp?: string;

  @ContentText(2048)
  whatsapp_body?: string;
}

/** Content of type facetime. */
export class QrFacetimeFields {
  @ContentText(32)
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

  @ContentText(128)
  wifi_ssid?: string;

  @ContentText(128)
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
