import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { OptionalReferenceId, Required, Trim } from '@app/common';
import { QR_TYPES } from '@app/qr';
import { assembleDto } from './assemble-dto';
import { oneOf } from './one-of';
import {
  QrEmailFields,
  QrFacetimeFields,
  QrLocationFields,
  QrPhoneFields,
  QrSmsFields,
  QrTextFields,
  QrUrlFields,
  QrWhatsappFields,
  QrWifiFields,
} from './qr-code-content.dto';
import { QrColourFields, QrFrameFields, QrStyleFields } from './qr-code-design.dto';
import { QrEventFields, QrVcardFields } from './qr-code-event-vcard.dto';
import { QrImageFields } from './qr-code-images.dto';
import {
  QrCryptoFields,
  QrEpcFields,
  QrPaypalFields,
  QrPixFields,
  QrUpiFields,
} from './qr-code-payments.dto';

/** What every QR code has: its name, its type and the project it belongs to. */
export class QrCodeBaseFields {
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

  @OptionalReferenceId('A project of yours; 0 or empty = none')
  project_id?: number;
}

/**
 * The order of the fields in the OpenAPI document and of the problems in a 400: by kind of value,
 * as the body was first written, so that splitting it into parts changed neither.
 */
const FIELD_ORDER = [
  // What every code has, then the choices from value lists
  'name',
  'type',
  'project_id',
  'style',
  'inner_eye_style',
  'outer_eye_style',
  'foreground_type',
  'foreground_gradient_style',
  'frame',
  'frame_text_font',
  'ecc',
  'wifi_encryption',
  'crypto_coin',
  'paypal_type',
  // Colours
  'foreground_color',
  'foreground_gradient_one',
  'foreground_gradient_two',
  'background_color',
  'eyes_inner_color',
  'eyes_outer_color',
  'frame_color',
  'frame_text_color',
  // Whole numbers
  'background_color_transparency',
  'qr_code_logo_size',
  'qr_code_background_transparency',
  'qr_code_foreground_transparency',
  'frame_text_size',
  'size',
  'margin',
  // Booleans (0 or 1)
  'custom_eyes_color',
  'frame_custom_colors',
  'wifi_is_hidden',
  'qr_code_logo_remove',
  'qr_code_background_remove',
  'qr_code_foreground_remove',
  // Decimal numbers
  'location_latitude',
  'location_longitude',
  'crypto_amount',
  'paypal_price',
  'upi_amount',
  'epc_amount',
  'pix_amount',
  // Texts, type by type
  'frame_text',
  'text',
  'url',
  'phone',
  'sms',
  'sms_body',
  'email',
  'email_subject',
  'email_body',
  'whatsapp',
  'whatsapp_body',
  'facetime',
  'event',
  'event_location',
  'event_url',
  'event_note',
  'event_timezone',
  'event_start_datetime',
  'event_end_datetime',
  'event_first_alert_datetime',
  'event_second_alert_datetime',
  'crypto_address',
  'vcard_first_name',
  'vcard_last_name',
  'vcard_company',
  'vcard_job_title',
  'vcard_email',
  'vcard_url',
  'vcard_birthday',
  'vcard_street',
  'vcard_city',
  'vcard_zip',
  'vcard_region',
  'vcard_country',
  'vcard_note',
  'wifi_ssid',
  'wifi_password',
  'paypal_email',
  'paypal_title',
  'paypal_currency',
  'paypal_thank_you_url',
  'paypal_cancel_url',
  'upi_payee_id',
  'upi_payee_name',
  'upi_currency',
  'upi_transaction_id',
  'upi_transaction_note',
  'upi_transaction_reference',
  'upi_thank_you_url',
  'epc_iban',
  'epc_payee_name',
  'epc_currency',
  'epc_bic',
  'epc_remittance_reference',
  'epc_remittance_text',
  'information',
  'pix_payee_key',
  'pix_payee_name',
  'pix_currency',
  'pix_city',
  'pix_transaction_id',
  'pix_description',
  // Lists
  'vcard_phone_number_label',
  'vcard_phone_number_value',
  'vcard_social_label',
  'vcard_social_value',
  // Contents as one string
  'location',
  'wifi',
  'crypto',
  'vcard',
  'paypal',
  'upi',
  'epc',
  'pix',
  // File parts
  'qr_code_logo',
  'qr_code_background',
  'qr_code_foreground',
] as const;

/**
 * Body of POST /qr-codes (create: name and type required) and, as a partial, of POST
 * /qr-codes/{id}. Fields, value lists and bounds are operation 11 of the seed and origin-api.md §4.2.
 * Files (qr_code_logo, qr_code_background, qr_code_foreground) arrive as multipart file parts.
 * Assembled from one part per concern: the code itself, its design, its images, and the content
 * fields of each type.
 */
export class CreateQrCodeDto extends assembleDto(
  [
    QrCodeBaseFields,
    QrStyleFields,
    QrColourFields,
    QrFrameFields,
    QrImageFields,
    QrTextFields,
    QrUrlFields,
    QrPhoneFields,
    QrSmsFields,
    QrEmailFields,
    QrWhatsappFields,
    QrFacetimeFields,
    QrLocationFields,
    QrWifiFields,
    QrEventFields,
    QrVcardFields,
    QrCryptoFields,
    QrPaypalFields,
    QrUpiFields,
    QrEpcFields,
    QrPixFields,
  ],
  FIELD_ORDER,
) {}
