import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IntRange,
  IsFormBoolean,
  IsHexColor,
  OptionalText,
  OptionalTextList,
  Required,
  Trim,
} from '@app/common';
import {
  CRYPTO_COINS,
  ECC_LEVELS,
  FOREGROUND_TYPES,
  FRAME_FONTS,
  FRAMES,
  GRADIENT_STYLES,
  INNER_EYE_STYLES,
  MODULE_STYLES,
  OUTER_EYE_STYLES,
  PAYPAL_TYPES,
  QR_TYPES,
  WIFI_ENCRYPTIONS,
} from '@app/qr';
import { Transform } from 'class-transformer';
import {
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
  ValidationArguments,
} from 'class-validator';
import { DecimalRange } from './form-number';

const oneOf = (values: readonly (string | number)[]) => ({
  message: ({ property }: ValidationArguments) =>
    `${property} must be one of: ${values.join(', ')}`,
});

/**
 * Body of POST /qr-codes (create: name and type required) and, as a partial, of POST
 * /qr-codes/{id}. Fields, value lists and bounds are operation 11 of the seed and origin-api.md §4.2.
 * Files (qr_code_logo, qr_code_background, qr_code_foreground) arrive as multipart file parts.
 */
export class CreateQrCodeDto {
  @ApiProperty({ maxLength: 64, example: 'Menu' })
  @Trim()
  @Required()
  @IsString()
  @MaxLength(64)
  name!: string;

  @ApiProperty({ enum: QR_TYPES, example: 'url' })
  @Required()
  @IsIn(QR_TYPES, oneOf(QR_TYPES))
  type!: (typeof QR_TYPES)[number];

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    description: 'A project of yours; empty to unassign',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === '' ? null : value))
  @ValidateIf((_o, v) => v !== null)
  @IntRange(1, 2147483647)
  project_id?: number | null;

  @ApiPropertyOptional({ enum: MODULE_STYLES })
  @IsOptional()
  @IsIn(MODULE_STYLES, oneOf(MODULE_STYLES))
  style?: (typeof MODULE_STYLES)[number];

  @ApiPropertyOptional({ enum: INNER_EYE_STYLES })
  @IsOptional()
  @IsIn(INNER_EYE_STYLES, oneOf(INNER_EYE_STYLES))
  inner_eye_style?: (typeof INNER_EYE_STYLES)[number];

  @ApiPropertyOptional({ enum: OUTER_EYE_STYLES })
  @IsOptional()
  @IsIn(OUTER_EYE_STYLES, oneOf(OUTER_EYE_STYLES))
  outer_eye_style?: (typeof OUTER_EYE_STYLES)[number];

  @ApiPropertyOptional({ enum: FOREGROUND_TYPES })
  @IsOptional()
  @IsIn(FOREGROUND_TYPES, oneOf(FOREGROUND_TYPES))
  foreground_type?: (typeof FOREGROUND_TYPES)[number];

  @ApiPropertyOptional({ enum: GRADIENT_STYLES })
  @IsOptional()
  @IsIn(GRADIENT_STYLES, oneOf(GRADIENT_STYLES))
  foreground_gradient_style?: (typeof GRADIENT_STYLES)[number];

  @ApiPropertyOptional({ enum: FRAMES, nullable: true, description: 'Empty for no frame' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === '' ? null : value))
  @ValidateIf((_o, v) => v !== null)
  @IsIn(FRAMES, oneOf(FRAMES))
  frame?: (typeof FRAMES)[number] | null;

  @ApiPropertyOptional({ enum: FRAME_FONTS })
  @IsOptional()
  @IsIn(FRAME_FONTS, oneOf(FRAME_FONTS))
  frame_text_font?: (typeof FRAME_FONTS)[number];

  @ApiPropertyOptional({ enum: ECC_LEVELS })
  @IsOptional()
  @IsIn(ECC_LEVELS, oneOf(ECC_LEVELS))
  ecc?: (typeof ECC_LEVELS)[number];

  @ApiPropertyOptional({ enum: WIFI_ENCRYPTIONS })
  @IsOptional()
  @IsIn(WIFI_ENCRYPTIONS, oneOf(WIFI_ENCRYPTIONS))
  wifi_encryption?: (typeof WIFI_ENCRYPTIONS)[number];

  @ApiPropertyOptional({ enum: CRYPTO_COINS })
  @IsOptional()
  @IsIn(CRYPTO_COINS, oneOf(CRYPTO_COINS))
  crypto_coin?: (typeof CRYPTO_COINS)[number];

  @ApiPropertyOptional({ enum: PAYPAL_TYPES })
  @IsOptional()
  @IsIn(PAYPAL_TYPES, oneOf(PAYPAL_TYPES))
  paypal_type?: (typeof PAYPAL_TYPES)[number];

  @ApiPropertyOptional({ example: '#000000', pattern: '^#[0-9a-fA-F]{6}$' })
  @IsOptional()
  @IsHexColor()
  foreground_color?: string;

  @ApiPropertyOptional({ example: '#000000', pattern: '^#[0-9a-fA-F]{6}$' })
  @IsOptional()
  @IsHexColor()
  foreground_gradient_one?: string;

  @ApiPropertyOptional({ example: '#000000', pattern: '^#[0-9a-fA-F]{6}$' })
  @IsOptional()
  @IsHexColor()
  foreground_gradient_two?: string;

  @ApiPropertyOptional({ example: '#000000', pattern: '^#[0-9a-fA-F]{6}$' })
  @IsOptional()
  @IsHexColor()
  background_color?: string;

  @ApiPropertyOptional({ example: '#000000', pattern: '^#[0-9a-fA-F]{6}$' })
  @IsOptional()
  @IsHexColor()
  eyes_inner_color?: string;

  @ApiPropertyOptional({ example: '#000000', pattern: '^#[0-9a-fA-F]{6}$' })
  @IsOptional()
  @IsHexColor()
  eyes_outer_color?: string;

  @ApiPropertyOptional({ example: '#000000', pattern: '^#[0-9a-fA-F]{6}$' })
  @IsOptional()
  @IsHexColor()
  frame_color?: string;

  @ApiPropertyOptional({ example: '#000000', pattern: '^#[0-9a-fA-F]{6}$' })
  @IsOptional()
  @IsHexColor()
  frame_text_color?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100 })
  @IsOptional()
  @IntRange(0, 100)
  background_color_transparency?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 5, maximum: 35 })
  @IsOptional()
  @IntRange(5, 35)
  qr_code_logo_size?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100 })
  @IsOptional()
  @IntRange(0, 100)
  qr_code_background_transparency?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100 })
  @IsOptional()
  @IntRange(0, 100)
  qr_code_foreground_transparency?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: -5, maximum: 5 })
  @IsOptional()
  @IntRange(-5, 5)
  frame_text_size?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 50, maximum: 2000 })
  @IsOptional()
  @IntRange(50, 2000)
  size?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 25 })
  @IsOptional()
  @IntRange(0, 25)
  margin?: number;

  @ApiPropertyOptional({ type: 'boolean', description: '0 or 1' })
  @IsOptional()
  @IsFormBoolean()
  custom_eyes_color?: boolean;

  @ApiPropertyOptional({ type: 'boolean', description: '0 or 1' })
  @IsOptional()
  @IsFormBoolean()
  frame_custom_colors?: boolean;

  @ApiPropertyOptional({ type: 'boolean', description: '0 or 1' })
  @IsOptional()
  @IsFormBoolean()
  wifi_is_hidden?: boolean;

  @ApiPropertyOptional({ type: 'boolean', description: '0 or 1' })
  @IsOptional()
  @IsFormBoolean()
  qr_code_logo_remove?: boolean;

  @ApiPropertyOptional({ type: 'boolean', description: '0 or 1' })
  @IsOptional()
  @IsFormBoolean()
  qr_code_background_remove?: boolean;

  @ApiPropertyOptional({ type: 'boolean', description: '0 or 1' })
  @IsOptional()
  @IsFormBoolean()
  qr_code_foreground_remove?: boolean;

  @ApiPropertyOptional({ type: 'number', minimum: -90, maximum: 90 })
  @IsOptional()
  @DecimalRange(-90, 90)
  location_latitude?: number;

  @ApiPropertyOptional({ type: 'number', minimum: -180, maximum: 180 })
  @IsOptional()
  @DecimalRange(-180, 180)
  location_longitude?: number;

  @ApiPropertyOptional({ type: 'number', minimum: 0, maximum: 1000000000000 })
  @IsOptional()
  @DecimalRange(0, 1000000000000)
  crypto_amount?: number;

  @ApiPropertyOptional({ type: 'number', minimum: 0, maximum: 1000000000 })
  @IsOptional()
  @DecimalRange(0, 1000000000)
  paypal_price?: number;

  @ApiPropertyOptional({ type: 'number', minimum: 0, maximum: 1000000000 })
  @IsOptional()
  @DecimalRange(0, 1000000000)
  upi_amount?: number;

  @ApiPropertyOptional({ type: 'number', minimum: 0, maximum: 999999999.99 })
  @IsOptional()
  @DecimalRange(0, 999999999.99)
  epc_amount?: number;

  @ApiPropertyOptional({ type: 'number', minimum: 0, maximum: 1000000000 })
  @IsOptional()
  @DecimalRange(0, 1000000000)
  pix_amount?: number;

  @OptionalText(64)
  frame_text?: string;

  @OptionalText(3000)
  text?: string;

  @OptionalText(2048)
  url?: string;

  @OptionalText(32)
  phone?: string;

  @OptionalText(32)
  sms?: string;

  @OptionalText(160)
  sms_body?: string;

  @OptionalText(360)
  email?: string;

  @OptionalText(256)
  email_subject?: string;

  @OptionalText(2048)
  email_body?: string;

  @OptionalText(32)
  whatsapp?: string;

  @OptionalText(2048)
  whatsapp_body?: string;

  @OptionalText(32)
  facetime?: string;

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

  @OptionalText(128)
  crypto_address?: string;

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

  @OptionalText(128)
  wifi_ssid?: string;

  @OptionalText(128)
  wifi_password?: string;

  @OptionalText(320)
  paypal_email?: string;

  @OptionalText(256)
  paypal_title?: string;

  @OptionalText(3)
  paypal_currency?: string;

  @OptionalText(1024)
  paypal_thank_you_url?: string;

  @OptionalText(1024)
  paypal_cancel_url?: string;

  @OptionalText(64)
  upi_payee_id?: string;

  @OptionalText(128)
  upi_payee_name?: string;

  @OptionalText(3)
  upi_currency?: string;

  @OptionalText(35)
  upi_transaction_id?: string;

  @OptionalText(80)
  upi_transaction_note?: string;

  @OptionalText(35)
  upi_transaction_reference?: string;

  @OptionalText(256)
  upi_thank_you_url?: string;

  @OptionalText(34)
  epc_iban?: string;

  @OptionalText(70)
  epc_payee_name?: string;

  @OptionalText(3)
  epc_currency?: string;

  @OptionalText(11)
  epc_bic?: string;

  @OptionalText(35)
  epc_remittance_reference?: string;

  @OptionalText(140)
  epc_remittance_text?: string;

  @OptionalText(70)
  information?: string;

  @OptionalText(64)
  pix_payee_key?: string;

  @OptionalText(99)
  pix_payee_name?: string;

  @OptionalText(3)
  pix_currency?: string;

  @OptionalText(99)
  pix_city?: string;

  @OptionalText(99)
  pix_transaction_id?: string;

  @OptionalText(128)
  pix_description?: string;

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
    description: 'The content as one string, used verbatim when no location_* field is sent',
  })
  @IsOptional()
  @IsString()
  @MaxLength(3000)
  location?: string;

  @ApiPropertyOptional({
    maxLength: 3000,
    description: 'The content as one string, used verbatim when no wifi_* field is sent',
  })
  @IsOptional()
  @IsString()
  @MaxLength(3000)
  wifi?: string;

  @ApiPropertyOptional({
    maxLength: 3000,
    description: 'The content as one string, used verbatim when no crypto_* field is sent',
  })
  @IsOptional()
  @IsString()
  @MaxLength(3000)
  crypto?: string;

  @ApiPropertyOptional({
    maxLength: 3000,
    description: 'The content as one string, used verbatim when no vcard_* field is sent',
  })
  @IsOptional()
  @IsString()
  @MaxLength(3000)
  vcard?: string;

  @ApiPropertyOptional({
    maxLength: 3000,
    description: 'The content as one string, used verbatim when no paypal_* field is sent',
  })
  @IsOptional()
  @IsString()
  @MaxLength(3000)
  paypal?: string;

  @ApiPropertyOptional({
    maxLength: 3000,
    description: 'The content as one string, used verbatim when no upi_* field is sent',
  })
  @IsOptional()
  @IsString()
  @MaxLength(3000)
  upi?: string;

  @ApiPropertyOptional({
    maxLength: 3000,
    description: 'The content as one string, used verbatim when no epc_* field is sent',
  })
  @IsOptional()
  @IsString()
  @MaxLength(3000)
  epc?: string;

  @ApiPropertyOptional({
    maxLength: 3000,
    description: 'The content as one string, used verbatim when no pix_* field is sent',
  })
  @IsOptional()
  @IsString()
  @MaxLength(3000)
  pix?: string;

  /** Documents the file part; the file itself reaches the service through @Uploaded(). */
  @ApiPropertyOptional({
    type: 'string',
    format: 'binary',
    description: 'Logo: PNG, JPEG, WebP or SVG (checked by content), at most 2 MB',
  })
  @IsOptional()
  qr_code_logo?: unknown;

  /** Documents the file part; the file itself reaches the service through @Uploaded(). */
  @ApiPropertyOptional({
    type: 'string',
    format: 'binary',
    description: 'Background image: PNG, JPEG, WebP or SVG (checked by content), at most 2 MB',
  })
  @IsOptional()
  qr_code_background?: unknown;

  /** Documents the file part; the file itself reaches the service through @Uploaded(). */
  @ApiPropertyOptional({
    type: 'string',
    format: 'binary',
    description:
      'Foreground image (fills the modules): PNG, JPEG, WebP or SVG (checked by content), at most 2 MB',
  })
  @IsOptional()
  qr_code_foreground?: unknown;
}
