import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import type { OutboundRequest } from '../outbound/safe-http';
import { HttpSender } from '../outbound/http-sender';
import { testMessage } from '../events/test-message';
import { newWebhookSecret } from './standard-webhooks';
import { WebhookChannel } from './webhook.channel';

/** The request a form-format webhook sends, as the channel builds and signs it. */
async function formDelivery(secret: string): Promise<OutboundRequest> {
  const sent: OutboundRequest[] = [];
  const http = {
    send: (request: OutboundRequest) => {
      sent.push(request);
      return Promise.resolve({ status: 204, body: '', headers: {} });
    },
  } as unknown as HttpSender;
  const message = testMessage({ id: 7, name: 'Form', type: 'webhook' }, 1, new Date());
  await new WebhookChannel(http).deliver(
    'webhook',
    { webhook: 'https://hooks.example/form', webhook_secret: secret, webhook_format: 'form' },
    message,
  );
  return sent[0];
}

/** The JavaScript block under a heading of docs/events.md. */
function docsExample(heading: string): string {
  const text = readFileSync(join(__dirname, '../../../../docs/events.md'), 'utf8');
  const section = text.slice(text.indexOf(`### ${heading}`));
  const match = /```js\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error(`docs/events.md has no js example under "${heading}"`);
  return match[1];
}

describe('verifying a form-format webhook as docs/events.md says, with standardwebhooks', () => {
  it('the documented code verifies a real form delivery and reads its fields', async () => {
    const secret = newWebhookSecret();
    const request = await formDelivery(secret);
    const headers = request.headers as Record<string, string>;
    const rawBody = String(request.body);
    // The library's default parses the body as JSON after the signature check: what the docs warn of.
    expect(() => new Webhook(secret).verify(rawBody, headers)).toThrow(SyntaxError);
    const code = docsExample('Verifying a form body').replace(/^import .*$/m, '');
    const run = new Function('Webhook', 'process', 'rawBody', 'req', `${code}\nreturn fields;`) as (
      ...args: unknown[]
    ) => Record<string, string>;
    const env = { env: { LINKDOCK_WEBHOOK_SECRET: secret } };
    expect(run(Webhook, env, rawBody, { headers })).toMatchObject({
      notification_handler_id: '7',
      event: 'test',
      event_id: expect.stringMatching(/^evt_/),
    });
    // A body changed on the way fails the same code.
    expect(() => run(Webhook, env, `${rawBody}&extra=1`, { headers })).toThrow(
      'No matching signature found',
    );
  });
});
