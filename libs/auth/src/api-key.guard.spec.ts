import type { IncomingMessage, ServerResponse } from 'node:http';
import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { ThrottlerException } from '@nestjs/throttler';
import { ErrorEntry } from '@app/common';
import { rejectionEntries } from '@app/testing/app-error-entries';
import { Actor } from './actor';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysService } from './api-keys.service';
import { ApiRateLimiter } from './api-rate-limiter';
import { BearerStrategy } from './bearer.strategy';
import { Public } from './public.decorator';

const VALID_KEY = 'ld_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
const ACTOR: Actor = { userId: 7, apiKeyId: 3, isAdmin: false, ownerId: 7 };

class FakeApiKeysService implements Pick<ApiKeysService, 'authenticate'> {
  readonly presented: string[] = [];

  authenticate(token: string): Promise<Actor | null> {
    this.presented.push(token);
    return Promise.resolve(token === VALID_KEY ? ACTOR : null);
  }
}

/** Records what the guard counts; `spent` makes the next count a 429. */
class FakeRateLimiter implements Pick<ApiRateLimiter, 'addressTracker' | 'consume'> {
  readonly counted: string[] = [];
  spent = false;

  addressTracker(req: IncomingMessage): string {
    return `ip:${String(req.headers['x-test-address'])}`;
  }

  consume(_res: ServerResponse, tracker: string): Promise<void> {
    this.counted.push(tracker);
    return this.spent ? Promise.reject(new ThrottlerException()) : Promise.resolve();
  }
}

class LinksController {
  list(): void {}

  @Public()
  open(): void {}
}

@Public()
class HealthController {
  check(): void {}
}

interface FakeRequest {
  headers: Record<string, string>;
  query: Record<string, string>;
  body: Record<string, string>;
  user?: unknown;
}

function request(
  headers: Record<string, string> = {},
  query: Record<string, string> = {},
  body: Record<string, string> = {},
): FakeRequest {
  return { headers, query, body };
}

function contextFor(
  req: FakeRequest,
  controller: object = LinksController,
  handler: () => void = LinksController.prototype.list,
): ExecutionContext {
  const res = { setHeader: jest.fn(), end: jest.fn() };
  return new ExecutionContextHost([req, res, jest.fn()], controller as never, handler);
}

describe(ApiKeyGuard.name, () => {
  let apiKeys: FakeApiKeysService;
  let limiter: FakeRateLimiter;
  let guard: ApiKeyGuard;

  beforeEach(() => {
    apiKeys = new FakeApiKeysService();
    limiter = new FakeRateLimiter();
    guard = new ApiKeyGuard(
      new Reflector(),
      limiter as unknown as ApiRateLimiter,
      new BearerStrategy(apiKeys as unknown as ApiKeysService),
    );
  });

  function activate(ctx: ExecutionContext): Promise<boolean> {
    return guard.canActivate(ctx);
  }

  function entriesOf(ctx: ExecutionContext): Promise<ErrorEntry[]> {
    return rejectionEntries(() => activate(ctx));
  }

  const MISSING = {
    status: 401,
    title: 'The request is missing the Bearer Authentication header.',
    code: 'unauthorized',
  };
  const INVALID = {
    status: 401,
    title: 'The API key is not valid: it is unknown, revoked or expired.',
    code: 'unauthorized',
  };

  it('lets a request to a @Public() handler through without a header', async () => {
    const req = request();

    expect(await activate(contextFor(req, LinksController, LinksController.prototype.open))).toBe(
      true,
    );
    expect(req.user).toBeUndefined();
    expect(apiKeys.presented).toEqual([]);
  });

  it('lets a request to a handler of a @Public() class through without a header', async () => {
    const ctx = contextFor(request(), HealthController, HealthController.prototype.check);

    expect(await activate(ctx)).toBe(true);
  });

  it('rejects a request without an Authorization header with 401 unauthorized', async () => {
    expect(await entriesOf(contextFor(request()))).toEqual([MISSING]);
    expect(apiKeys.presented).toEqual([]);
  });

  it('rejects an unknown key with 401 unauthorized', async () => {
    const req = request({ authorization: 'Bearer ld_unknown' });

    expect(await entriesOf(contextFor(req))).toEqual([INVALID]);
    expect(apiKeys.presented).toEqual(['ld_unknown']);
    expect(req.user).toBeUndefined();
  });

  it('rejects another authentication scheme with 401 unauthorized', async () => {
    expect(await entriesOf(contextFor(request({ authorization: `Basic ${VALID_KEY}` })))).toEqual([
      INVALID,
    ]);
    expect(apiKeys.presented).toEqual([]);
  });

  it('accepts a valid key and puts its actor on the request', async () => {
    const req = request({ authorization: `Bearer ${VALID_KEY}` });

    expect(await activate(contextFor(req))).toBe(true);
    expect(req.user).toEqual(ACTOR);
    expect(apiKeys.presented).toEqual([VALID_KEY]);
  });

  it('accepts the scheme in any case', async () => {
    const req = request({ authorization: `bearer ${VALID_KEY}` });

    expect(await activate(contextFor(req))).toBe(true);
    expect(req.user).toEqual(ACTOR);
  });

  it('rejects a valid key given only as the access_token query parameter', async () => {
    const req = request({}, { access_token: VALID_KEY });

    expect(await entriesOf(contextFor(req))).toEqual([MISSING]);
    expect(apiKeys.presented).toEqual([]);
    expect(req.user).toBeUndefined();
  });

  it('rejects a valid key given only as the access_token body field', async () => {
    const req = request({}, {}, { access_token: VALID_KEY });

    expect(await entriesOf(contextFor(req))).toEqual([MISSING]);
    expect(apiKeys.presented).toEqual([]);
  });

  it('ignores an access_token query parameter or body field next to a valid header', async () => {
    const req = request(
      { authorization: `Bearer ${VALID_KEY}` },
      { access_token: 'other' },
      { access_token: 'other' },
    );

    expect(await activate(contextFor(req))).toBe(true);
    expect(req.user).toEqual(ACTOR);
    expect(apiKeys.presented).toEqual([VALID_KEY]);
  });

  it('rejects a header with two spaces, exactly as the rate limiter reads it', async () => {
    const req = request({ authorization: `Bearer  ${VALID_KEY}` });

    expect(await entriesOf(contextFor(req))).toEqual([INVALID]);
    expect(apiKeys.presented).toEqual([]);
  });

  it('counts a failed authentication against the client address, and only then', async () => {
    const address = { 'x-test-address': '203.0.113.9' };
    await entriesOf(contextFor(request(address)));
    await entriesOf(contextFor(request({ ...address, authorization: 'Bearer ld_unknown' })));
    await activate(contextFor(request({ ...address, authorization: `Bearer ${VALID_KEY}` })));
    await activate(contextFor(request(address), LinksController, LinksController.prototype.open));

    expect(limiter.counted).toEqual(['ip:203.0.113.9', 'ip:203.0.113.9']);
  });

  it('answers 429 instead of 401 once the address has spent its budget', async () => {
    limiter.spent = true;
    const req = request({ authorization: 'Bearer ld_unknown' });

    // The exception filter turns it into the 429 body, with the headers the limiter wrote.
    await expect(activate(contextFor(req))).rejects.toBeInstanceOf(ThrottlerException);
    expect(limiter.counted).toEqual(['ip:undefined']);
  });

  it('serves a valid key even when its address has spent its budget', async () => {
    limiter.spent = true;
    const req = request({ authorization: `Bearer ${VALID_KEY}` });

    expect(await activate(contextFor(req))).toBe(true);
    expect(req.user).toEqual(ACTOR);
    expect(limiter.counted).toEqual([]);
  });

  it('fails with the fault itself when the key cannot be checked, counting nothing', async () => {
    const fault = new Error('database is locked');
    jest.spyOn(apiKeys, 'authenticate').mockRejectedValue(fault);
    const req = request({ authorization: `Bearer ${VALID_KEY}` });

    await expect(activate(contextFor(req))).rejects.toBe(fault);
    expect({ user: req.user, counted: limiter.counted }).toEqual({ user: undefined, counted: [] });
  });
});
