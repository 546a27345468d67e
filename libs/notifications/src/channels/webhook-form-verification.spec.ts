import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { Webhook } from 'standardwebhooks';
import { testMessage } from '../events/test-message';
import { HttpSender } from '../outbound/http-sender';
import type { OutboundRequest } from '../outbound/safe-http';
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
    const run = (body: string) =>
      runInNewContext(`${code}\nfields;`, {
        Webhook,
        URLSearchParams,
        process: { env: { LINKDOCK_WEBHOOK_SECRET: secret } },
        rawBody: body,
        req: { headers },
      }) as Record<string, string>;
    expect(run(rawBody)).toMatchObject({
      notification_handler_id: '7',
      event: 'test',
      event_id: expect.stringMatching(/^evt_/),
    });
    // A body changed on the way fails the same code.
    expect(() => run(`${rawBody}&extra=1`)).toThrow('No matching signature found');
  });
});
