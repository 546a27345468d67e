import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express, Request, Response } from 'express';
import request from 'supertest';
import { EnvelopeExpressAdapter, markRawResponse } from './envelope';
import { Paginated } from './paginated';

const APP_URL = 'https://links.example.com';

/** An Express app whose one route answers `result` through the adapter, as Nest would. */
function appAnswering(result: unknown, prepare: (req: Request, res: Response) => void = () => {}) {
  const adapter = new EnvelopeExpressAdapter(APP_URL);
  const app = adapter.getInstance<Express>();
  app.get('/v1/things', (req, res) => {
    prepare(req, res);
    void adapter.reply(res, result, 200);
  });
  return app;
}

describe(EnvelopeExpressAdapter.name, () => {
  it('wraps a result in {data}', async () => {
    const res = await request(appAnswering({ id: 5, name: 'a' })).get('/v1/things');
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 200,
      body: { data: { id: 5, name: 'a' } },
    });
  });

  it('answers {data: null} for null and {} for a handler that returns nothing', async () => {
    expect((await request(appAnswering(null)).get('/v1/things')).body).toEqual({ data: null });
    const empty = await request(appAnswering(undefined)).get('/v1/things');
    expect({ status: empty.status, text: empty.text }).toEqual({ status: 200, text: '{}' });
  });

  it('answers a Paginated as the list envelope, links rooted at APP_URL', async () => {
    const page = new Paginated([{ id: 1 }], 3, 2, 1);
    const res = await request(appAnswering(page)).get('/v1/things?page=2&results_per_page=1');
    expect(res.body).toEqual({
      data: [{ id: 1 }],
      meta: { page: 2, results_per_page: 1, total: 3, total_results: 3, total_pages: 3 },
      links: {
        first: `${APP_URL}/v1/things?results_per_page=1&page=1`,
        last: `${APP_URL}/v1/things?results_per_page=1&page=3`,
        next: `${APP_URL}/v1/things?results_per_page=1&page=3`,
        prev: `${APP_URL}/v1/things?results_per_page=1&page=1`,
        self: `${APP_URL}/v1/things?results_per_page=1&page=2`,
      },
    });
  });

  it('leaves the result of a @RawResponse() handler as it is', async () => {
    const app = appAnswering({ status: 'ok' }, (_req, res) => markRawResponse(res));
    expect((await request(app).get('/v1/things')).body).toEqual({ status: 'ok' });
  });

  it("removes the request's upload files before it answers", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'envelope-'));
    const path = join(dir, 'a.upload');
    writeFileSync(path, 'zip');
    try {
      const app = appAnswering({ id: 1 }, (req) => {
        req.files = [{ fieldname: 'file', path } as Express.Multer.File];
      });
      const res = await request(app).get('/v1/things');
      expect({ status: res.status, body: res.body as unknown, kept: existsSync(path) }).toEqual({
        status: 200,
        body: { data: { id: 1 } },
        kept: false,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
