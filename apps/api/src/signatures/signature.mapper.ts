import { ApiProperty } from '@nestjs/swagger';
import { formatDateTime } from '@app/common';
import { SignatureEntity } from '@app/database';
import {
  DEFAULT_SETTINGS,
  SETTING_KEYS,
  type SignatureSettings,
  withDefaults,
} from '@app/signatures';

/** Every `settings` key with its type (documented from the defaults). */
export class SignatureSettingsResponse {}
for (const key of SETTING_KEYS) {
  const value = DEFAULT_SETTINGS[key];
  ApiProperty({
    type: typeof value === 'number' ? 'integer' : typeof value === 'boolean' ? Boolean : String,
    example: value,
  })(SignatureSettingsResponse.prototype, key);
}

export class SignatureResponse {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ type: 'integer', nullable: true, example: null }) project_id!: number | null;
  @ApiProperty({ example: 'Work' }) name!: string;
  @ApiProperty({ example: 'mars' }) template!: string;
  @ApiProperty({ type: SignatureSettingsResponse }) settings!: SignatureSettings;
  @ApiProperty({ type: String, nullable: true, example: null }) last_datetime!: string | null;
  @ApiProperty({ example: '2026-11-21 10:00:00' }) datetime!: string;
}

export class SignatureHtmlResponse {
  @ApiProperty({ description: 'Email-client-safe HTML fragment (tables, inline styles).' })
  html!: string;

  @ApiProperty({ description: 'Public, unguessable page showing the signature, to open and copy.' })
  preview_url!: string;
}

export function parseStoredSettings(entity: SignatureEntity): SignatureSettings {
  return withDefaults(JSON.parse(entity.settings) as Partial<SignatureSettings>);
}

export function toSignatureResponse(entity: SignatureEntity): SignatureResponse {
  return {
    id: entity.id,
    project_id: entity.project_id,
    name: entity.name,
    template: entity.template,
    settings: parseStoredSettings(entity),
    last_datetime: formatDateTime(entity.last_datetime),
    datetime: formatDateTime(entity.datetime),
  };
}
