import type { IncomingMessage, ServerResponse } from 'node:http';
import { ThrottlerException } from '@nestjs/throttler';
import type { AppConfig } from '@app/config';
import { CounterThrottlerStorage } from '@app/redis';
import { hashApiKey } from './api-key';
import { ApiRateLimiter } from './api-rate-limiter';

class FakeResponse {
  readonly headers: Record<string, number> = {};

  setHeader(name: string, value: number): void {
    this.headers[name] = value;
  }
}

function requestFrom(peer: string, forwardedFor?: string): IncomingMessage {
  const headers = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
  return { socket: { remoteAddress: peer }, headers } as unknown as IncomingMessage;
}

describe(ApiRateLimiter.name, () => {
  let storage: CounterThrottlerStorage;
  let limiter: ApiRateLimiter;

  beforeEach(() => {
    storage = new CounterThrottlerStorage();
    limiter = new ApiRateLimiter(
      { throttlers: [{ name: 'default', ttl: 60_000, limit: 2 }] },
      storage,
      { trustedProxies: ['10.0.0.1'] } as AppConfig,
    );
  });
  afterEach(() => storage.onApplicationShutdown());

  async function consume(tracker: string): Promise<FakeResponse> {
    const res = new FakeResponse();
    await limiter.consume(res as unknown as ServerResponse, tracker);
    return res;
  }

  it('takes its budget from the throttler ThrottlerModule was given', () => {
    expect(limiter.budget).toEqual({
      name: 'default',
      limit: 2,
      ttl: 60_000,
      blockDuration: 60_000,
    });
  });

  it('writes the three headers on every counted request', async () => {
    const first = await consume('key:1');
    expect(first.headers).toEqual({
      'X-RateLimit-Limit': 2,
      'X-RateLimit-Remaining': 1,
      'X-RateLimit-Reset': 60,
    });
    expect((await consume('key:1')).headers['X-RateLimit-Remaining']).toBe(0);
  });

  it('throws ThrottlerException past the limit, with Retry-After and the three headers', async () => {
    await consume('ip:203.0.113.1');
    await consume('ip:203.0.113.1');
    const res = new FakeResponse();

    await expect(
      limiter.consume(res as unknown as ServerResponse, 'ip:203.0.113.1'),
    ).rejects.toBeInstanceOf(ThrottlerException);
    expect(res.headers).toEqual({
      'X-RateLimit-Limit': 2,
      'X-RateLimit-Remaining': 0,
      'X-RateLimit-Reset': 60,
      'Retry-After': 60,
    });
  });

  it('keeps separate budgets per tracker', async () => {
    await consume('key:1');
    await consume('key:1');
    expect((await consume('key:2')).headers['X-RateLimit-Remaining']).toBe(1);
  });

  it('tracks by the peer, or by X-Forwarded-For when the peer is a trusted proxy', () => {
    expect(limiter.addressTracker(requestFrom('203.0.113.5', '198.51.100.1'))).toBe(
      'ip:203.0.113.5',
    );
    expect(limiter.addressTracker(requestFrom('10.0.0.1', '198.51.100.1'))).toBe('ip:198.51.100.1');
    expect(limiter.addressTracker(requestFrom('::ffff:203.0.113.5'))).toBe('ip:203.0.113.5');
    expect(limiter.keyTracker('ld_abc')).toBe(`key:${hashApiKey('ld_abc')}`);
  });
});
