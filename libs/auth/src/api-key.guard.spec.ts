import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { ErrorEntry } from '@app/common';
import { firstValueFrom, isObservable } from 'rxjs';
import { Actor } from './actor';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysService } from './api-keys.service';
import { BearerStrategy } from './bearer.strategy';
import { Public } from './public.decorator';
import { rejectionEntries } from '@app/testing/app-error-entries';

const VALID_KEY = 'ld_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
const ACTOR: Actor = { userId: 7, apiKeyId: 3, isAdmin: false, ownerId: 7 };

class FakeApiKeysService implements Pick<ApiKeysService, 'authenticate'> {
  readonly presented: string[] = [];

  authenticate(token: string): Promise<Actor | null> {
    this.presented.push(token);
    return Promise.resolve(token === VALID_KEY ? ACTOR : null);
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
  let guard: ApiKeyGuard;

  beforeEach(() => {
    apiKeys = new FakeApiKeysService();
    // Registers the 'bearer' strategy with passport, as the auth module does at boot.
    new BearerStrategy(apiKeys as unknown as ApiKeysService);
    guard = new ApiKeyGuard(new Reflector());
  });

  async function activate(ctx: ExecutionContext): Promise<boolean> {
    const result = guard.canActivate(ctx);
    return isObservable(result) ? firstValueFrom(result) : result;
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
});
