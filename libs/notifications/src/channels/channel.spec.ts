import type { AppConfig } from '@app/config';
import type { PushSubscribersRepository } from '@app/database';
import type { HttpSender } from '../outbound/http-sender';
import { httpResult } from './channel';
import { PushChannel } from './push.channel';

describe(httpResult.name, () => {
  it('reads 2xx as success and other answers as failures with an excerpt', () => {
    expect(httpResult(204, '')).toEqual({ ok: true, statusCode: 204, error: null });
    expect(httpResult(503, ' busy \n now ')).toEqual({
      ok: false,
      statusCode: 503,
      error: 'The target answered 503: busy now',
    });
  });

  it('marks 410 Gone as gone: the Standard Webhooks spec says to stop sending', () => {
    expect(httpResult(410, 'unsubscribed')).toEqual({
      ok: false,
      statusCode: 410,
      error: 'The target answered 410: unsubscribed',
      gone: 'The target answered 410 Gone: it asks for no more deliveries.',
    });
  });
});

describe(PushChannel.name, () => {
  it('reports a subscriber removed earlier as gone, without sending anything', async () => {
    const http = { send: jest.fn() };
    const subscribers = { findById: jest.fn().mockResolvedValue(null) };
    const channel = new PushChannel(
      http as unknown as HttpSender,
      subscribers as unknown as PushSubscribersRepository,
      {
        notifications: { vapidKeys: null, vapidSubject: null },
        adminEmail: 'a@b.example',
      } as AppConfig,
      Buffer.alloc(32, 7),
    );
    const error = 'Push subscriber 9 no longer exists; choose another one for this handler.';
    await expect(
      channel.deliver(
        'push_subscriber_id',
        { push_subscriber_id: '9' },
        { event: 'link.created', title: 't', text: 'x', data: {} },
      ),
    ).resolves.toEqual({ ok: false, statusCode: null, error, gone: error });
    expect(http.send).not.toHaveBeenCalled();
  });
});
