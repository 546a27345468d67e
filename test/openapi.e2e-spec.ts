import { readFileSync } from 'node:fs';
import { createTestApp, TestApp } from '@app/testing';
import { buildOpenApiDocument } from '../apps/api/src/openapi';
import { OPENAPI_FILE, serializeOpenApi } from '../apps/api/src/write-openapi';

type Operation = { responses: Record<string, unknown>; security?: unknown[] };

describe('OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('matches the committed docs/openapi.json (run `npm run openapi` after changing the API)', () => {
    const generated = serializeOpenApi(buildOpenApiDocument(t.app));
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(generated);
  });

  it('is served at /v1/openapi.json with the bearer scheme and the server URL', async () => {
    const res = await t.http.get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.servers).toEqual([{ url: 'http://links.test' }]);
    expect(res.body.components.securitySchemes).toEqual({
      bearer: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'opaque',
        description: 'An API key (ld_…).',
      },
    });
    expect(res.body.security).toEqual([{ bearer: [] }]);
  });

  it('documents the error responses of every operation', () => {
    const doc = buildOpenApiDocument(t.app);
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, Operation>).map(([method, op]) => ({
        path,
        method,
        op,
      })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(6);
    for (const { path, method, op } of operations) {
      // A keyless operation (security: []) cannot answer 401, but is rate-limited all the same.
      const keyless = Array.isArray(op.security) && op.security.length === 0;
      expect([path, method, Object.keys(op.responses)]).toEqual([
        path,
        method,
        expect.arrayContaining(keyless ? ['429'] : ['401', '429']),
      ]);
      if (keyless) {
        expect(Object.keys(op.responses)).not.toContain('401');
      }
      expect(path.startsWith('/v1/')).toBe(true);
    }
    expect(doc.paths['/v1/domains/tls-check'].get!.security).toEqual([]);
    expect(Object.keys(doc.paths['/v1/projects/{id}'].get!.responses).sort()).toEqual([
      '200',
      '401',
      '403',
      '404',
      '429',
    ]);
  });

  it('serves Swagger UI at /docs from the local package, with no CDN', async () => {
    const res = await t.http.get('/docs/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('swagger-ui');
    expect(res.text).not.toMatch(/https?:\/\/(unpkg|cdn|cdnjs)/);
  });
});
