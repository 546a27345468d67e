import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppConfig } from '@app/config';
import type { VisitorCache, VisitorDomain } from './cache/visitor-cache.service';
import { hostOf, VisitorRouter } from './router';
import { Served } from './served';
import type { Visit } from './visit';

function request(method: string, url: string, host?: string): IncomingMessage {
  return { method, url, headers: host === undefined ? {} : { host } } as IncomingMessage;
}

const res = { writeHead: jest.fn(), end: jest.fn() };
const next = jest.fn();

describe(hostOf.name, () => {
  it.each([
    ['Links.Example:8080', 'links.example'],
    ['links.example.', 'links.example'],
    ['[::1]:3000', '[::1]'],
    ['[::1', ''],
    [undefined, ''],
  ])('reads the Host %p as %p', (header, expected) => {
    expect(hostOf(request('GET', '/', header))).toBe(expected);
  });
});

describe(VisitorRouter.name, () => {
  const domain = (enabled: boolean): VisitorDomain => ({
    scheme: 'https://',
    id: 5,
    host: 'go.brand.example',
    enabled,
    indexUrl: null,
    notFoundUrl: null,
  });
  const cache = { peekHost: jest.fn(), loadHost: jest.fn() };
  const router = new VisitorRouter(
    cache as unknown as VisitorCache,
    {
      appUrl: 'https://links.example',
    } as AppConfig,
    new Served(),
  );
  const parse = (method: string, url: string, host = 'links.example'): Visit | null =>
    router.parse(request(method, url, host), res as unknown as ServerResponse, next);

  beforeEach(() => jest.clearAllMocks());

  it('splits a link path into alias, rest and query', () => {
    const visit = parse('GET', '/promo/docs/a.html?x=1');
    expect(visit && [visit.alias, visit.path, visit.rest, visit.query, visit.isMain]).toEqual([
      'promo',
      '/promo/docs/a.html',
      '/docs/a.html',
      'x=1',
      true,
    ]);
    expect(parse('GET', '/promo?')?.query).toBeNull();
  });

  it.each([
    ['PUT', '/promo', 'links.example'],
    ['POST', '/', 'links.example'],
    ['POST', '/', 'go.brand.example'],
    ['GET', '/v1/links', 'links.example'],
    ['GET', '/a.b/c', 'links.example'],
  ])('leaves %s %s on %s to Nest', (method, url, host) => {
    expect(parse(method, url, host)).toBeNull();
  });

  it('claims aliases of one and two characters, which an import may carry (YOURLS 1, z, 10)', () => {
    expect(['/1', '/z', '/10', '/ab'].map((url) => parse('GET', url)?.alias)).toEqual([
      '1',
      'z',
      '10',
      'ab',
    ]);
  });

  it('claims the root of the main domain and of another host, for its custom domain', () => {
    expect(parse('HEAD', '/', 'go.brand.example')?.alias).toBe('');
    const main = parse('GET', '/?from=x');
    expect(main && [main.alias, main.isMain, main.rest]).toEqual(['', true, null]);
  });

  it('routes an enabled custom domain and passes a disabled one on or answers 404', () => {
    const then = jest.fn();
    cache.peekHost.mockReturnValue(domain(true));
    const enabled = parse('GET', '/promo', 'go.brand.example') as Visit;
    router.route(enabled, then);
    expect([then.mock.calls.length, enabled.domainId]).toEqual([1, 5]);

    cache.peekHost.mockReturnValue(domain(false));
    router.route(parse('GET', '/promo/file.css', 'go.brand.example') as Visit, then);
    expect([then.mock.calls.length, next.mock.calls.length]).toEqual([1, 1]);
    router.route(parse('GET', '/promo', 'go.brand.example') as Visit, then);
    expect([then.mock.calls.length, res.writeHead.mock.calls[0]?.[0]]).toEqual([1, 404]);
  });

  it('serves the main domain for a host that is no custom domain', () => {
    const then = jest.fn();
    cache.peekHost.mockReturnValue(null);
    const visit = parse('GET', '/promo', '192.0.2.7') as Visit;
    router.route(visit, then);
    expect([then.mock.calls.length, visit.domainId]).toEqual([1, 0]);
    expect(cache.loadHost).not.toHaveBeenCalled();
  });
});
