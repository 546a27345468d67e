import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { thrownEntries } from '@app/testing/app-error-entries';
import { Actor } from './actor';
import { ApiKeyScopeGuard, RequiresFullScope } from './api-key-scope.guard';
import { Public } from './public.decorator';

const READER: Actor = { userId: 1, apiKeyId: 2, isAdmin: false, ownerId: 1, scope: 'read' };

class LinksController {
  list(): void {}
  @Public()
  open(): void {}
}

@RequiresFullScope()
class KeysController {
  list(): void {}
}

function check(
  method: string,
  user: Actor | undefined,
  controller: new () => object,
  handler: () => void,
) {
  const context: ExecutionContext = new ExecutionContextHost(
    [{ method, user }, {}, jest.fn()],
    controller as never,
    handler,
  );
  return () => new ApiKeyScopeGuard(new Reflector()).canActivate(context);
}

const L = LinksController.prototype;
const K = KeysController.prototype;

describe(ApiKeyScopeGuard.name, () => {
  it('lets a read key make GET and HEAD requests', () => {
    expect(check('GET', READER, LinksController, L.list)()).toBe(true);
    expect(check('HEAD', READER, LinksController, L.list)()).toBe(true);
  });

  it.each(['POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'])('refuses %s to a read key', (method) => {
    expect(thrownEntries(check(method, READER, LinksController, L.list))).toEqual([
      {
        status: 403,
        title: 'This API key has the read scope: it may only make GET requests.',
        code: 'forbidden',
      },
    ]);
  });

  it('refuses a read key even a GET of a full-scope controller', () => {
    expect(thrownEntries(check('GET', READER, KeysController, K.list))).toEqual([
      {
        status: 403,
        title: 'Managing API keys needs a key with the full scope.',
        code: 'forbidden',
      },
    ]);
  });

  it('lets full keys, actors without a scope and public routes through', () => {
    expect(check('POST', { ...READER, scope: 'full' }, KeysController, K.list)()).toBe(true);
    expect(check('POST', { ...READER, scope: undefined }, LinksController, L.list)()).toBe(true);
    expect(check('POST', READER, LinksController, L.open)()).toBe(true);
    expect(check('POST', undefined, LinksController, L.list)()).toBe(true);
  });
});
