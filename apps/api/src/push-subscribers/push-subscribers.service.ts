import { Inject, Injectable } from '@nestjs/common';
import { Actor } from '@app/auth';
import {
  AppError,
  Clock,
  ListQuery,
  NotFoundError,
  Paginated,
  Problem,
  readHttpUrl,
  urlCredentialsMessage,
} from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { PushSubscriberEntity, PushSubscribersRepository } from '@app/database';
import { PushChannel } from '@app/notifications';
import { CreatePushSubscriberDto } from './dto/create-push-subscriber.dto';
import {
  PushSubscriberResponse,
  toPushSubscriberResponse,
  VapidPublicKeyResponse,
} from './push-subscriber.mapper';

/** Browsers' push subscriptions that `push_subscriber_id` handlers send to. */
@Injectable()
export class PushSubscribersService {
  constructor(
    private readonly subscribers: PushSubscribersRepository,
    private readonly push: PushChannel,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(actor: Actor, query: ListQuery): Promise<Paginated<PushSubscriberResponse>> {
    return (await this.subscribers.listOwned(actor.ownerId, query)).map(toPushSubscriberResponse);
  }

  async get(actor: Actor, id: number): Promise<PushSubscriberResponse> {
    return toPushSubscriberResponse(await this.findOwned(actor, id));
  }

  vapidPublicKey(): VapidPublicKeyResponse {
    return { public_key: this.push.keys.publicKey };
  }

  /** The same browser subscribing again (same endpoint) updates its keys: one subscriber per browser. */
  async create(actor: Actor, dto: CreatePushSubscriberDto): Promise<{ id: number }> {
    const problems: Problem[] = [];
    // The stored form within the column's 1024 characters (percent-encoding can lengthen it).
    const url = readHttpUrl(dto.endpoint, 1024);
    const endpoint = url.ok ? url.href : null;
    // Push services are https; plain http only where private targets are allowed (local tests).
    const plainAllowed = this.config.notifications.allowPrivateWebhooks;
    if (endpoint === null || !(endpoint.startsWith('https://') || plainAllowed)) {
      problems.push({
        title:
          !url.ok && url.credentials
            ? urlCredentialsMessage('endpoint')
            : 'endpoint must be an https URL of a push service.',
        field: 'endpoint',
      });
    }
    const p256dh = Buffer.from(dto.keys.p256dh, 'base64url');
    if (p256dh.length !== 65 || p256dh[0] !== 4) {
      problems.push({
        title: 'keys[p256dh] must be a P-256 public key: 65 bytes starting with 0x04, base64url.',
        field: 'keys[p256dh]',
      });
    }
    if (Buffer.from(dto.keys.auth, 'base64url').length !== 16) {
      problems.push({ title: 'keys[auth] must be 16 bytes, base64url.', field: 'keys[auth]' });
    }
    if (problems.length > 0 || endpoint === null) {
      throw new AppError('validation_failed', problems);
    }
    const now = this.clock.now();
    const existing = await this.subscribers.findByEndpoint(actor.ownerId, endpoint);
    if (existing) {
      existing.p256dh = p256dh.toString('base64url');
      existing.auth = Buffer.from(dto.keys.auth, 'base64url').toString('base64url');
      existing.name = dto.name || existing.name;
      await this.subscribers.save(existing);
      return { id: existing.id };
    }
    const id = await this.subscribers.insert({
      user_id: actor.ownerId,
      name: dto.name || new URL(endpoint).host.slice(0, 64),
      endpoint,
      p256dh: p256dh.toString('base64url'),
      auth: Buffer.from(dto.keys.auth, 'base64url').toString('base64url'),
      datetime: now,
      last_datetime: null,
    });
    return { id };
  }

  async remove(actor: Actor, id: number): Promise<{ id: number }> {
    if (!(await this.subscribers.deleteOwned(actor.ownerId, id))) {
      throw new NotFoundError('push_subscriber_not_found', 'push subscriber');
    }
    return { id };
  }

  private async findOwned(actor: Actor, id: number): Promise<PushSubscriberEntity> {
    const found = await this.subscribers.findOwned(actor.ownerId, id);
    if (!found) {
      throw new NotFoundError('push_subscriber_not_found', 'push subscriber');
    }
    return found;
  }
}
