import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { Required, Trim } from '@app/common';

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** The `keys` of a browser's PushSubscription (`subscription.toJSON().keys`). */
export class PushSubscriptionKeysDto {
  @ApiProperty({
    description: "The browser's P-256 public key: 65 bytes (uncompressed point), base64url.",
    example:
      'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  })
  @Required()
  @Matches(BASE64URL, { message: 'keys[p256dh] must be base64url' })
  @MaxLength(128, { message: 'keys[p256dh] must be at most 128 characters' })
  @IsString({ message: 'keys[p256dh] must be text' })
  p256dh!: string;

  @ApiProperty({
    description: 'The 16-byte authentication secret, base64url.',
    example: 'tBHItJI5svbpez7KI4CCXg',
  })
  @Required()
  @Matches(BASE64URL, { message: 'keys[auth] must be base64url' })
  @MaxLength(32, { message: 'keys[auth] must be at most 32 characters' })
  @IsString({ message: 'keys[auth] must be text' })
  auth!: string;
}

/** A browser's PushSubscription as `JSON.stringify(subscription)` gives it, and a name. */
export class CreatePushSubscriberDto {
  @ApiPropertyOptional({
    maxLength: 64,
    example: 'My laptop',
    description: 'Default: the push service host.',
  })
  @IsOptional()
  @Trim()
  @MaxLength(64, { message: 'name must be at most 64 characters' })
  @IsString({ message: 'name must be text' })
  name?: string;

  @ApiProperty({
    maxLength: 1024,
    example: 'https://fcm.googleapis.com/fcm/send/dpH5lCsTSSM:APA91bH...',
    description: "The subscription's push service endpoint (https).",
  })
  @Required()
  @MaxLength(1024, { message: 'endpoint must be at most 1024 characters' })
  @IsString({ message: 'endpoint must be text' })
  endpoint!: string;

  @ApiProperty({ type: PushSubscriptionKeysDto })
  @Required()
  @ValidateNested()
  @Type(() => PushSubscriptionKeysDto)
  @IsObject({ message: 'keys must be an object with p256dh and auth' })
  keys!: PushSubscriptionKeysDto;
}
