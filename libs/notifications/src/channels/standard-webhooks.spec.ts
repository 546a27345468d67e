import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, standardWebhookHeaders } from './standard-webhooks';

/** Checked with the scheme's official package, not with our own code. */
describe('standardWebhookHeaders', () => {
  const body = JSON.stringify({ id: 'evt_1', event: 'link.created', data: { id: 1 } });
  const now = Math.floor(Date.now() / 1000);

  it('signs so that the standardwebhooks package verifies a generated whsec_ secret', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const headers = standardWebhookHeaders(secret, 'msg_1', now, body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });

  it('signs with the bytes of a secret chosen before the scheme (whsec_ + its base64 to verify)', () => {
    const secret = 'my-webhook-secret-0123456789';
    const headers = standardWebhookHeaders(secret, 'msg_2', now, body);
    const asWhsec = `whsec_${Buffer.from(secret).toString('base64')}`;
    expect(new Webhook(asWhsec).verify(body, headers)).toEqual(JSON.parse(body));
  });
});
