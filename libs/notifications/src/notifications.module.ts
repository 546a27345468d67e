import { Module } from '@nestjs/common';
import { SECRETS_KEY } from '@app/config';
import { Channel, CHANNELS } from './channels/channel';
import { ChatWebhookChannel } from './channels/chat-webhook.channel';
import { EmailChannel } from './channels/email.channel';
import { PushChannel } from './channels/push.channel';
import { TelegramChannel } from './channels/telegram.channel';
import { TwilioChannel } from './channels/twilio.channel';
import { WebhookChannel } from './channels/webhook.channel';
import { WhatsappChannel } from './channels/whatsapp.channel';
import { XChannel } from './channels/x.channel';
import { Notifier } from './notifier';
import { HttpSender } from './outbound/http-sender';
import { DeliveryResults } from './outbox-metrics';
import { HandlerSettingsCodec } from './secrets/handler-settings.codec';
import { SecretBox } from './secrets/secret-box';

const CHANNEL_CLASSES = [
  WebhookChannel,
  ChatWebhookChannel,
  TelegramChannel,
  EmailChannel,
  TwilioChannel,
  WhatsappChannel,
  XChannel,
  PushChannel,
];

/** The delivery interface: Notifier, its channels, the secrets box, and the count of attempts. */
@Module({
  providers: [
    HttpSender,
    ...CHANNEL_CLASSES,
    {
      provide: CHANNELS,
      inject: CHANNEL_CLASSES,
      useFactory: (...channels: Channel[]) => channels,
    },
    { provide: SecretBox, inject: [SECRETS_KEY], useFactory: (key: Buffer) => new SecretBox(key) },
    HandlerSettingsCodec,
    Notifier,
    DeliveryResults,
  ],
  exports: [Notifier, HandlerSettingsCodec, PushChannel, DeliveryResults],
})
export class NotificationsModule {}
