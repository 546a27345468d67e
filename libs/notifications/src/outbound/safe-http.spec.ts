import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { isPublicAddress } from './address-policy';
import { OutboundPolicy, safeRequest } from './safe-http';

/** A local server whose routes answer redirects, big bodies or nothing at all. */
let server: Server;
let base: string;
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/redirect') {
      res.writeHead(Number(url.searchParams.get('status') ?? 302), {
        Location: url.searchParams.get('to') ?? '/',
      });
      res.end();
    } else if (url.pathname === '/loop') {
      res.writeHead(302, { Location: '/loop' }).end();
    } else if (url.pathname === '/big') {
      res.writeHead(200);
      res.end('x'.repeat(200_000));
    } else if (url.pathname === '/silent') {
      // never answers
    } else {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => res.writeHead(200).end(`${req.method} ${body}`));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  hits.length = 0;
});

const GUARDED: OutboundPolicy = { allowPrivate: false, timeoutMs: 5000 };
/** The guard as in production, except that this test's server on 127.0.0.1 plays a public host. */
const LOCAL_IS_PUBLIC: OutboundPolicy = {
  ...GUARDED,
  isAllowedAddress: (ip) => ip === '127.0.0.1' || isPublicAddress(ip),
};

describe(safeRequest.name, () => {
  it.each([
    ['http://127.0.0.1:9/x', '127.0.0.1'],
    ['http://[::1]:9/x', '::1'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://10.1.2.3/x', '10.1.2.3'],
    ['http://[::ffff:127.0.0.1]/x', '::ffff:7f00:1'],
  ])('refuses %s before connecting', async (url, host) => {
    await expect(safeRequest({ method: 'GET', url }, GUARDED)).rejects.toThrow(
      `The host ${host} resolves to a private, loopback or link-local address, which is not allowed.`,
    );
  });

  it('refuses a host name that resolves to loopback, and one with any private answer', async () => {
    const resolve = (host: string) =>
      Promise.resolve(host === 'sneaky.example' ? ['127.0.0.1'] : ['93.184.216.34', '10.0.0.1']);
    await expect(
      safeRequest({ method: 'GET', url: `http://sneaky.example:1/` }, { ...GUARDED, resolve }),
    ).rejects.toThrow('The host sneaky.example resolves to a private');
    await expect(
      safeRequest({ method: 'GET', url: `http://mixed.example:1/` }, { ...GUARDED, resolve }),
    ).rejects.toThrow('The host mixed.example resolves to a private');
  });

  it('connects to the address it checked, sending the name as Host', async () => {
    const port = new URL(base).port;
    const res = await safeRequest(
      { method: 'POST', url: `http://hooks.example:${port}/echo`, body: 'hi' },
      { ...LOCAL_IS_PUBLIC, resolve: () => Promise.resolve(['127.0.0.1']) },
    );
    expect(res).toMatchObject({ status: 200, body: 'POST hi' });
    expect(hits).toEqual(['/echo']);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://10.0.0.5/admin', '10.0.0.5'],
    ['http://[::1]/x', '::1'],
  ])('treats a redirect as a new target: one to %s is refused', async (to, host) => {
    await expect(
      safeRequest(
        { method: 'GET', url: `${base}/redirect?to=${encodeURIComponent(to)}` },
        LOCAL_IS_PUBLIC,
      ),
    ).rejects.toThrow(`The host ${host} resolves to a private`);
    expect(hits).toHaveLength(1);
  });

  it('follows an allowed redirect, keeping the method and body on 307', async () => {
    const res = await safeRequest(
      { method: 'POST', url: `${base}/redirect?status=307&to=/echo`, body: 'again' },
      LOCAL_IS_PUBLIC,
    );
    expect(res).toMatchObject({ status: 200, body: 'POST again', url: `${base}/echo` });
  });

  it('turns a POST into a GET on 302, as browsers do', async () => {
    const res = await safeRequest(
      { method: 'POST', url: `${base}/redirect?to=/echo`, body: 'gone' },
      LOCAL_IS_PUBLIC,
    );
    expect(res.body).toBe('GET ');
  });

  it('stops after three redirects', async () => {
    await expect(
      safeRequest({ method: 'GET', url: `${base}/loop` }, LOCAL_IS_PUBLIC),
    ).rejects.toThrow('Too many redirects (more than 3).');
    expect(hits).toHaveLength(4);
  });

  it('caps the body it reads', async () => {
    const res = await safeRequest(
      { method: 'GET', url: `${base}/big` },
      { ...LOCAL_IS_PUBLIC, maxBodyBytes: 1000 },
    );
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1000);
  });

  it('gives up on a target that never answers', async () => {
    await expect(
      safeRequest({ method: 'GET', url: `${base}/silent` }, { ...LOCAL_IS_PUBLIC, timeoutMs: 300 }),
    ).rejects.toThrow('No answer within 300 ms.');
  });

  it.each([
    ['file:///etc/passwd', 'The target must be an http(s) URL, not file:'],
    ['http://user:pw@example.com/', 'The target URL must not carry credentials.'],
    ['not a url', 'The target is not a valid URL.'],
  ])('refuses %s', async (url, message) => {
    await expect(safeRequest({ method: 'GET', url }, GUARDED)).rejects.toThrow(message);
  });

  it('reaches private addresses when allowed (ALLOW_PRIVATE_WEBHOOKS=1)', async () => {
    const res = await safeRequest(
      { method: 'GET', url: `${base}/echo` },
      { allowPrivate: true, timeoutMs: 5000 },
    );
    expect(res.status).toBe(200);
  });
});
