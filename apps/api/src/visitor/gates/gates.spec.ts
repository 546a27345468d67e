import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { VisitorInfo } from '@app/analytics';
import type { AppConfig } from '@app/config';
import { hashLinkPassword } from '@app/links';
import { CounterThrottlerStorage } from '@app/redis';
import type { VisitorLink } from '../cache/visitor-link';
import { Served } from '../served';
import { Visit } from '../visit';
import { ClicksLimitGate } from './clicks-limit.gate';
import { PasswordGate } from './password.gate';
import { ScheduleGate } from './schedule.gate';
import { SensitiveGate } from './sensitive.gate';
import { TargetingGate } from './targeting.gate';

const CONFIG = { appUrl: 'https://links.example', trustedProxies: [] } as unknown as AppConfig;
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

function linkOf(overrides: Partial<VisitorLink> = {}): VisitorLink {
  return {
    id: 42,
    domainId: 0,
    alias: 'promo',
    enabled: true,
    startMs: null,
    endMs: null,
    statusCode: 302,
    location: 'https://example.com/landing',
    forwardQuery: false,
    clicksLimit: null,
    clicksAtLoad: 0,
    clicksSinceLoad: 0,
    expirationUrl: null,
    passwordHash: null,
    passwordTag: null,
    sensitive: false,
    targetingType: null,
    targeting: [],
    rotationTotal: 0,
    splash: null,
    site: null,
    bio: null,
    preview: null,
    ...overrides,
  };
}

const SITE = { siteId: 'site-1', version: 'v1' };

interface Answer {
  status?: number;
  headers?: Record<string, unknown>;
  body?: string;
  /** Settles once the response is ended. */
  ended: Promise<void>;
}

/** A visit of `url` whose response records what a gate answered. */
function visitOf(
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body = '',
): { visit: Visit; answer: Answer } {
  let ended = (): void => undefined;
  const answer: Answer = { ended: new Promise((resolve) => (ended = resolve)) };
  const res = {
    writeHead: (status: number, head: Record<string, unknown>) => {
      answer.status = status;
      answer.headers = head;
    },
    end: (text?: string) => {
      answer.body = text;
      ended();
    },
  } as unknown as ServerResponse;
  const req = Object.assign(Readable.from(body === '' ? [] : [Buffer.from(body)]), {
    method,
    url,
    headers,
    socket: { remoteAddress: '192.0.2.1' },
  }) as unknown as IncomingMessage;
  const [path, query = null] = url.split('?');
  const [, alias, rest = null] = /^\/([^/]+)(\/.*)?$/.exec(path) ?? [];
  const visit = new Visit(
    req,
    res,
    jest.fn(),
    'links.example',
    true,
    alias,
    path,
    query,
    rest,
    new Served(),
  );
  return { visit, answer };
}

describe(ScheduleGate.name, () => {
  const gate = new ScheduleGate();
  const expired = { endMs: Date.now() - 1000, expirationUrl: 'https://example.com/over' };

  it('answers 404 before the start and lets the visit through between start and end', () => {
    const early = visitOf('/promo');
    expect(gate.check(early.visit, linkOf({ startMs: Date.now() + 60_000 }))).toBe(true);
    expect(early.answer.status).toBe(404);
    expect(gate.check(visitOf('/promo').visit, linkOf({ startMs: Date.now() - 1 }))).toBe(false);
  });

  it('sends page views past the end to the expiration URL, and closes every file of a site', () => {
    const page = visitOf('/promo');
    expect(gate.check(page.visit, linkOf(expired))).toBe(true);
    expect([page.answer.status, page.answer.headers?.Location]).toEqual([
      302,
      expired.expirationUrl,
    ]);
    // A redirect is counted on the app's Served (the metrics read it); a 404 is not.
    expect(page.visit.served.redirects).toBe(1);
    const file = visitOf('/promo/a.css', { 'sec-fetch-dest': 'style' });
    expect(gate.check(file.visit, linkOf({ ...expired, site: SITE }))).toBe(true);
    expect(file.answer.status).toBe(404);
    expect(file.visit.served.redirects).toBe(0);
  });
});

describe(ClicksLimitGate.name, () => {
  const gate = new ClicksLimitGate();
  const spent = { clicksLimit: 3, clicksAtLoad: 2, clicksSinceLoad: 1 };

  it('expires page views at the limit, not before', () => {
    const at = visitOf('/promo');
    expect(gate.check(at.visit, linkOf(spent))).toBe(true);
    expect(at.answer.status).toBe(404);
    expect(gate.check(visitOf('/promo').visit, linkOf({ ...spent, clicksSinceLoad: 0 }))).toBe(
      false,
    );
  });

  it('still serves the files a site page opened before the limit', () => {
    const file = visitOf('/promo/app.js', { 'sec-fetch-dest': 'script' });
    expect(gate.check(file.visit, linkOf({ ...spent, site: SITE }))).toBe(false);
  });
});

describe(SensitiveGate.name, () => {
  const gate = new SensitiveGate();
  const link = linkOf({ sensitive: true });

  it('shows the warning, posting back to the link with its query, until confirmed', () => {
    const first = visitOf('/promo?a=1');
    expect(gate.check(first.visit, link)).toBe(true);
    expect(first.answer.status).toBe(200);
    expect(first.answer.body).toContain('<form method="post" action="/promo?a=1">');
    expect(gate.check(visitOf('/promo', { cookie: 'x=y; ld_sc_42=1' }).visit, link)).toBe(false);
  });

  it('lets the files of a site through', () => {
    const file = visitOf('/promo/a.png', { 'sec-fetch-dest': 'image' });
    expect(gate.check(file.visit, linkOf({ sensitive: true, site: SITE }))).toBe(false);
  });
});

describe(PasswordGate.name, () => {
  const gate = new PasswordGate(Buffer.alloc(32, 7), CONFIG, new CounterThrottlerStorage());
  let link: VisitorLink;

  beforeAll(async () => {
    link = linkOf({ passwordHash: await hashLinkPassword('open sesame'), passwordTag: 'tag-1' });
  });

  /** Posts the form and waits until the answer is written. */
  async function post(password: string): Promise<Answer> {
    const { visit, answer } = visitOf(
      '/promo',
      {},
      'POST',
      `type=password&password=${encodeURIComponent(password)}`,
    );
    gate.answerPost(visit, link);
    await answer.ended;
    return answer;
  }

  it('shows the form to a visitor without the cookie', () => {
    const { visit, answer } = visitOf('/promo');
    expect(gate.check(visit, link)).toBe(true);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('name="password"');
  });

  it('sets a signed cookie for the right password, which then opens the link', async () => {
    expect((await post('wrong')).status).toBe(403);
    const right = await post('open sesame');
    expect(right.status).toBe(303);
    const [setCookie] = right.headers?.['Set-Cookie'] as string[];
    expect(setCookie).toMatch(
      /^ld_pw_42=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/promo; HttpOnly; SameSite=Lax; Secure$/,
    );
    const pair = setCookie.split(';')[0];
    expect(gate.check(visitOf('/promo', { cookie: pair }).visit, link)).toBe(false);
    expect(gate.check(visitOf('/promo', { cookie: `${pair.slice(0, -2)}xx` }).visit, link)).toBe(
      true,
    );
    const changed = { ...link, passwordTag: 'tag-2' };
    expect(gate.check(visitOf('/promo', { cookie: pair }).visit, changed)).toBe(true);
  });

  it('refuses a POST to a link with neither a password nor a sensitive warning', () => {
    const { visit, answer } = visitOf('/promo', {}, 'POST');
    gate.answerPost(visit, linkOf());
    expect([answer.status, answer.headers?.Allow]).toEqual([405, 'GET, HEAD']);
  });
});

describe(TargetingGate.name, () => {
  const gate = new TargetingGate(new VisitorInfo(), CONFIG);

  it('picks the first matching rule and forwards the query when the link does', () => {
    const link = linkOf({
      forwardQuery: true,
      targetingType: 'device_type',
      targeting: [{ key: 'mobile', value: 'https://m.example.com/?app=1' }],
    });
    const phone = visitOf('/promo?q=2', { 'user-agent': IPHONE }).visit;
    expect(gate.check(phone, link)).toBe(false);
    expect(phone.destination).toBe('https://m.example.com/?app=1&q=2');
    const other = visitOf('/promo?q=2', { 'user-agent': 'curl/8' }).visit;
    expect(gate.check(other, link)).toBe(false);
    expect(other.destination).toBe('https://example.com/landing?q=2');
  });

  it('answers 404 when the visitor is left with no destination', () => {
    const { visit, answer } = visitOf('/promo');
    expect(gate.check(visit, linkOf({ location: null }))).toBe(true);
    expect(answer.status).toBe(404);
  });
});
