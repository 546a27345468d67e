import { randomBytes } from 'node:crypto';
import { NotificationHandlerEntity, NotificationHandlersRepository } from '@app/database';
import { Channel } from './channels/channel';
import { HandlerSettings, HandlerType } from './handler-types';
import { ChannelResult, NotificationMessage } from './notification-message';
import { Notifier } from './notifier';
import { OutboundError } from './outbound/outbound-error';
import { HandlerSettingsCodec } from './secrets/handler-settings.codec';
import { SecretBox } from './secrets/secret-box';

class RecordingChannel implements Channel {
  readonly types = ['webhook', 'email'] as const;
  readonly sent: Array<{
    type: HandlerType;
    settings: HandlerSettings;
    message: NotificationMessage;
  }> = [];
  next: () => Promise<ChannelResult> = () =>
    Promise.resolve({ ok: true, statusCode: 204, error: null });

  unavailableReason(type: HandlerType): string | null {
    return type === 'email'
      ? 'Delivery for email needs SMTP_URL to be configured on the server.'
      : null;
  }

  deliver(type: HandlerType, settings: HandlerSettings, message: NotificationMessage) {
    this.sent.push({ type, settings, message });
    return this.next();
  }
}

const MESSAGE: NotificationMessage = {
  event: 'data.collected',
  title: 'New email collected',
  text: 'ada@example.com',
  data: { link_id: 3 },
};

describe(Notifier.name, () => {
  const codec = new HandlerSettingsCodec(new SecretBox(randomBytes(32)));
  let channel: RecordingChannel;
  let rows: NotificationHandlerEntity[];
  let notifier: Notifier;

  const row = (
    id: number,
    user_id: number,
    type: string,
    settings: HandlerSettings,
    is_enabled = true,
  ) =>
    Object.assign(new NotificationHandlerEntity(), {
      id,
      user_id,
      name: `h${id}`,
      type,
      settings_encrypted: codec.seal(settings),
      is_enabled,
      datetime: new Date(),
      last_datetime: null,
    });

  beforeEach(() => {
    channel = new RecordingChannel();
    rows = [
      row(1, 7, 'webhook', { webhook: 'https://a.example/hook', webhook_secret: 's'.repeat(16) }),
      row(
        2,
        7,
        'webhook',
        { webhook: 'https://b.example/hook', webhook_secret: 't'.repeat(16) },
        false,
      ),
      row(3, 8, 'webhook', { webhook: 'https://c.example/hook', webhook_secret: 'u'.repeat(16) }),
      row(4, 7, 'push_subscriber_id', { push_subscriber_id: '12' }),
    ];
    const repo = {
      findEnabled: (ownerId: number) =>
        Promise.resolve(rows.filter((r) => r.user_id === ownerId && r.is_enabled)),
    };
    notifier = new Notifier([channel], repo as unknown as NotificationHandlersRepository, codec);
  });

  it('notify() delivers to each enabled handler of the owner only, with decrypted settings', async () => {
    const warned = jest.spyOn(notifier['logger'], 'warn').mockImplementation(() => undefined);
    const results = await notifier.notify(7, MESSAGE);
    expect(channel.sent).toEqual([
      {
        type: 'webhook',
        settings: { webhook: 'https://a.example/hook', webhook_secret: 's'.repeat(16) },
        message: MESSAGE,
      },
    ]);
    expect(results).toEqual([
      {
        handler_id: 1,
        outcome: { ok: true, status_code: 204, latency_ms: expect.any(Number), error: null },
      },
      {
        handler_id: 4,
        outcome: {
          ok: false,
          status_code: null,
          latency_ms: expect.any(Number),
          error: 'Delivery for push_subscriber_id is not available yet.',
        },
      },
    ]);
    expect(warned).toHaveBeenCalledWith(
      'Handler 4 (push_subscriber_id) failed: Delivery for push_subscriber_id is not available yet.',
    );
    warned.mockRestore();
  });

  it('raise() never rejects: a failing repository is logged, not thrown', async () => {
    const broken = new Notifier(
      [channel],
      {
        findEnabled: () => Promise.reject(new Error('database down')),
      } as unknown as NotificationHandlersRepository,
      codec,
    );
    const logged = jest.spyOn(broken['logger'], 'error').mockImplementation(() => undefined);
    await expect(broken.raise(7, MESSAGE)).resolves.toBeUndefined();
    expect(String(logged.mock.calls[0][0])).toContain(
      'Event data.collected for owner 7 was not delivered: Error: database down',
    );
  });

  it('raise() delivers like notify()', async () => {
    jest.spyOn(notifier['logger'], 'warn').mockImplementation(() => undefined);
    await notifier.raise(7, MESSAGE);
    expect(channel.sent.map((s) => s.settings.webhook)).toEqual(['https://a.example/hook']);
  });

  it('reports an unavailable channel without calling it', async () => {
    const outcome = await notifier.deliver('email', { email: 'a@b.co' }, MESSAGE);
    expect(outcome).toEqual({
      ok: false,
      status_code: null,
      latency_ms: expect.any(Number),
      error: 'Delivery for email needs SMTP_URL to be configured on the server.',
    });
    expect(channel.sent).toEqual([]);
  });

  it('turns a thrown outbound error into an outcome, and hides unexpected ones', async () => {
    const logged = jest.spyOn(notifier['logger'], 'error').mockImplementation(() => undefined);
    channel.next = () => Promise.reject(new OutboundError('No answer within 10 ms.'));
    expect(await notifier.deliver('webhook', {}, MESSAGE)).toMatchObject({
      ok: false,
      error: 'No answer within 10 ms.',
    });
    channel.next = () => Promise.reject(new TypeError('secret internals'));
    expect(await notifier.deliver('webhook', {}, MESSAGE)).toMatchObject({
      ok: false,
      error: 'Delivery failed unexpectedly.',
    });
    // The details go to the log only.
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0][0])).toContain('TypeError: secret internals');
    logged.mockRestore();
  });
});
