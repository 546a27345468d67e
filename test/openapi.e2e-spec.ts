import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_NAMES } from '@app/notifications';
import { createTestApp, TestApp } from '@app/testing';
import { buildOpenApiDocument } from '../apps/api/src/openapi';
import { OPENAPI_FILE, serializeOpenApi } from '../apps/api/src/write-openapi';

type Operation = {
  responses: Record<string, unknown>;
  security?: unknown[];
  parameters?: Array<{ name?: string }>;
};

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
      metrics: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN (not an API key).' },
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
    // Outside /v1: the operator's routes (not rate-limited) and the processors' webhooks.
    const unthrottled = ['/health', '/metrics'];
    expect(operations.map((o) => o.path).filter((p) => !p.startsWith('/v1/'))).toEqual(
      expect.arrayContaining([
        ...unthrottled,
        '/webhooks/stripe',
        '/webhooks/paddle',
        '/webhooks/lemonsqueezy',
      ]),
    );
    for (const { path, method, op } of operations) {
      if (unthrottled.includes(path)) continue;
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
      expect([path, path.startsWith('/v1/') || path.startsWith('/webhooks/')]).toEqual([
        path,
        true,
      ]);
    }
    expect(Object.keys(doc.paths['/health'].get!.responses)).toEqual(['200', '503']);
    expect(doc.paths['/metrics'].get!.security).toEqual([{ metrics: [] }]);
    expect(Object.keys(doc.paths['/metrics'].get!.responses)).toEqual(['200', '401']);
    // Each processor's signature header, required, and the raw event as the body.
    for (const [processor, header] of [
      ['stripe', 'Stripe-Signature'],
      ['paddle', 'Paddle-Signature'],
      ['lemonsqueezy', 'X-Signature'],
    ]) {
      const op = doc.paths[`/webhooks/${processor}`].post!;
      expect([processor, op.security, Object.keys(op.responses).sort()]).toEqual([
        processor,
        [],
        ['200', '400', '404', '429'],
      ]);
      expect(op.parameters).toEqual([
        expect.objectContaining({ name: header, in: 'header', required: true }),
      ]);
      expect(op.requestBody).toMatchObject({ required: true });
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

  it('documents the 404 of X-Team-Id, JSON errors of the exports and what push-subscribers returns', () => {
    const doc = buildOpenApiDocument(t.app);
    type Responses = Record<string, { content?: Record<string, unknown> }>;
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
        const team = (op.parameters ?? []).some((p) => p.name === 'X-Team-Id');
        if (team && !('404' in op.responses)) missing.push(`${method} ${path}`);
      }
    }
    // An X-Team-Id naming a team the caller is not an accepted member of answers 404.
    expect(missing).toEqual([]);
    for (const path of ['/v1/links/export', '/v1/data/export']) {
      const responses = doc.paths[path].get!.responses as Responses;
      expect(Object.keys(responses['200'].content ?? {})).toEqual(['text/csv', 'application/json']);
      for (const status of ['400', '403']) {
        expect([path, status, Object.keys(responses[status].content ?? {})]).toEqual([
          path,
          status,
          ['application/json'],
        ]);
      }
    }
    const created = doc.paths['/v1/push-subscribers'].post!.responses as Responses;
    expect(created['201'].content?.['application/json']).toEqual({
      schema: {
        type: 'object',
        required: ['data'],
        properties: { data: { $ref: '#/components/schemas/IdDto' } },
      },
    });
  });

  it('is OpenAPI 3.1 with no 3.0 `nullable`, and describes each event of the catalogue as a webhook', () => {
    const doc = buildOpenApiDocument(t.app);
    expect(doc.openapi).toBe('3.1.0');
    expect(JSON.stringify(doc)).not.toContain('"nullable":');
    // A nullable field is `null` among its types.
    const links = doc.components!.schemas!.ListLinksDto as { properties: Record<string, unknown> };
    expect(links.properties.next).toEqual({ type: ['string', 'null'] });
    type Webhook = {
      post: {
        parameters: Array<{ name: string; in: string; required: boolean }>;
        requestBody: { content: Record<string, { schema: { allOf: unknown[] } }> };
        responses: Record<string, unknown>;
      };
    };
    const webhooks = (doc as { webhooks?: Record<string, Webhook> }).webhooks ?? {};
    expect(Object.keys(webhooks).sort()).toEqual([...EVENT_NAMES].sort());
    const payloadOf: Record<string, string> = {
      link: 'LinkEventPayload',
      domain: 'DomainEventPayload',
      team_member: 'TeamMemberEventPayload',
      data: 'RecordEventPayload',
      payment: 'RecordEventPayload',
    };
    for (const name of EVENT_NAMES) {
      const post = webhooks[name].post;
      const payload = payloadOf[name.split('.')[0]];
      expect([name, post.requestBody.content['application/json'].schema.allOf]).toEqual([
        name,
        [
          { $ref: `#/components/schemas/${payload}` },
          { type: 'object', properties: { event: { const: name } } },
        ],
      ]);
      // The payload component lists this event among its `event` values.
      const component = doc.components!.schemas![payload] as {
        properties: { event: { enum: string[] } };
      };
      expect([name, component.properties.event.enum]).toEqual([
        name,
        expect.arrayContaining([name]),
      ]);
      const headers = post.parameters.filter((p) => p.in === 'header' && p.required);
      expect([name, headers.map((h) => h.name)]).toEqual([
        name,
        expect.arrayContaining(['webhook-id', 'webhook-timestamp', 'webhook-signature']),
      ]);
      expect([name, Object.keys(post.responses)]).toEqual([name, ['200', '410']]);
    }
  });

  it('serves Swagger UI at /docs from the local package, with no CDN', async () => {
    const res = await t.http.get('/docs/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('swagger-ui');
    expect(res.text).not.toMatch(/https?:\/\/(unpkg|cdn|cdnjs)/);
  });

  it('lists every tag its operations use, each with a description, and names a server and a licence', () => {
    const doc = buildOpenApiDocument(t.app);
    const used = new Set(
      Object.values(doc.paths).flatMap((item) =>
        Object.values(item as Record<string, { tags?: string[] }>).flatMap((op) => op.tags ?? []),
      ),
    );
    const listed = (doc.tags ?? []).map((tag) => tag.name);
    expect([...used].sort()).toEqual([...listed].sort());
    for (const tag of doc.tags ?? []) {
      expect([tag.name, tag.description?.length ?? 0]).toEqual([tag.name, expect.any(Number)]);
      expect(tag.description!.length).toBeGreaterThan(10);
    }
    expect(doc.servers).toEqual([
      { url: '/', description: 'The Linkdock that serves this document' },
    ]);
    // The licence of package.json and LICENSE (MIT), with a link to its text.
    expect(doc.info.license).toEqual({ name: 'MIT', url: 'https://opensource.org/license/mit' });
    expect(JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).license).toBe(
      'MIT',
    );
    expect(readFileSync(join(__dirname, '..', 'LICENSE'), 'utf8').split('\n')[0]).toBe(
      'MIT License',
    );
  });

  it('passes `redocly lint` (recommended rules, redocly.yaml) with no error and no warning', () => {
    // Redocly CLI is an independent OpenAPI linter; its JSON report lists every problem.
    const out = spawnSync(
      process.execPath,
      [require.resolve('@redocly/cli/bin/cli.js'), 'lint', OPENAPI_FILE, '--format', 'json'],
      {
        encoding: 'utf8',
        cwd: join(__dirname, '..'),
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const report = JSON.parse(out.stdout.slice(out.stdout.indexOf('{'))) as {
      problems: Array<{ ruleId: string; severity: string; message: string }>;
    };
    expect(report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(out.status).toBe(0);
  });

  it('sends Swagger UI the option that keeps the key across reloads', async () => {
    const res = await t.http.get('/docs/swagger-ui-init.js');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/"persistAuthorization":\s*true/);
  });
});
