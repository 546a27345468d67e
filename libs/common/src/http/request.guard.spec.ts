import { Controller } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { Request, Response } from 'express';
import { rejectionEntries } from '@app/testing/app-error-entries';
import { isRawResponse, RawResponse } from './envelope';
import { MultipartParser } from './multipart';
import { RequestGuard } from './request.guard';
import { Uploads, type UploadsSpec } from './uploads.decorator';

const IMAGE = { image: { maxBytes: 1000 } };

@Controller()
class ThingsController {
  create(): void {}
  @Uploads(IMAGE)
  upload(): void {}
  @RawResponse()
  file(): void {}
}

class FakeMultipart implements Pick<MultipartParser, 'parse'> {
  readonly parsed: Array<UploadsSpec | undefined> = [];
  constructor(private readonly fields: Record<string, string>) {}
  parse(req: Request, _res: Response, spec: UploadsSpec | undefined): Promise<void> {
    this.parsed.push(spec);
    req.body = this.fields;
    return Promise.resolve();
  }
}

function requestOf(headers: Record<string, string>, body?: unknown, query = {}): Request {
  const req = { headers, body, query } as unknown as Request;
  req.is = (type: string) => (headers['content-type']?.startsWith(type) ? type : false);
  return req;
}

async function activate(
  req: Request,
  handler: () => void,
  multipart = new FakeMultipart({}),
): Promise<{ passed: boolean; res: Response; multipart: FakeMultipart }> {
  const res = {} as Response;
  const guard = new RequestGuard(new Reflector(), multipart as unknown as MultipartParser);
  const context = new ExecutionContextHost([req, res, () => {}], ThingsController, handler);
  return { passed: await guard.canActivate(context), res, multipart };
}

describe(RequestGuard.name, () => {
  const proto = ThingsController.prototype;

  it('lets a request without a NUL character through, its body untouched', async () => {
    const req = requestOf({ 'content-type': 'application/json' }, { name: 'a' }, { q: 'b' });
    const { passed, multipart } = await activate(req, proto.create);
    expect({ passed, body: req.body as unknown, parsed: multipart.parsed }).toEqual({
      passed: true,
      body: { name: 'a' },
      parsed: [],
    });
  });

  it('refuses a NUL character in the body or the query with a 400 naming each field', async () => {
    const req = requestOf({}, { name: 'a\0', nested: { x: ['\0'] } }, { q: '\0' });
    expect(await rejectionEntries(activate(req, proto.create))).toEqual([
      {
        status: 400,
        title: 'q must not contain a NUL character.',
        field: 'q',
        code: 'validation_failed',
      },
      {
        status: 400,
        title: 'name must not contain a NUL character.',
        field: 'name',
        code: 'validation_failed',
      },
      {
        status: 400,
        title: 'nested[x][0] must not contain a NUL character.',
        field: 'nested[x][0]',
        code: 'validation_failed',
      },
    ]);
  });

  it("reads a multipart body with the handler's @Uploads() spec, then checks its fields", async () => {
    const ok = await activate(
      requestOf({ 'content-type': 'multipart/form-data; boundary=x' }),
      proto.upload,
      new FakeMultipart({ name: 'a' }),
    );
    expect(ok.multipart.parsed).toEqual([{ fields: IMAGE, storage: 'memory' }]);
    const refused = rejectionEntries(
      activate(
        requestOf({ 'content-type': 'multipart/form-data; boundary=x' }),
        proto.create,
        new FakeMultipart({ name: '\0' }),
      ),
    );
    expect(await refused).toEqual([
      {
        status: 400,
        title: 'name must not contain a NUL character.',
        field: 'name',
        code: 'validation_failed',
      },
    ]);
  });

  it('marks the response of a @RawResponse() handler, and only that one', async () => {
    const raw = await activate(requestOf({}), proto.file);
    const enveloped = await activate(requestOf({}), proto.create);
    expect([isRawResponse(raw.res), isRawResponse(enveloped.res)]).toEqual([true, false]);
  });
});
