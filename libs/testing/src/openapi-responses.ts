import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** The committed document (`npm run openapi` writes it): what clients read. */
const DOCUMENT_FILE = join(__dirname, '..', '..', '..', 'docs', 'openapi.json');

/** What the check needs of a supertest response (its `req` is the node:http request sent). */
export interface LiveResponse {
  status: number;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

function requestOf(res: LiveResponse): { method: string; path: string } {
  const req = (res as { req?: { method?: unknown; path?: unknown } }).req;
  if (typeof req?.method !== 'string' || typeof req.path !== 'string') {
    throw new Error('openApiProblems needs a supertest response (with the request it answers)');
  }
  return { method: req.method, path: req.path };
}

interface Route {
  template: string;
  pattern: RegExp;
  /** Literal segments win over parameters (`/v1/links/export` before `/v1/links/{id}`). */
  params: number;
}

interface WebhookOperation {
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
}

interface Loaded {
  ajv: Ajv2020;
  paths: Record<string, Record<string, unknown>>;
  webhooks: Record<string, { post?: WebhookOperation }>;
  routes: Route[];
  validators: Map<string, ValidateFunction>;
}

let loaded: Loaded | null = null;

function load(): Loaded {
  if (loaded !== null) {
    return loaded;
  }
  const document = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as {
    openapi: string;
    paths: Record<string, Record<string, unknown>>;
    webhooks?: Record<string, { post?: WebhookOperation }>;
  };
  if (!document.openapi.startsWith('3.1.')) {
    throw new Error(`docs/openapi.json is OpenAPI ${document.openapi}; this check reads 3.1 only`);
  }
  // Ajv's JSON Schema 2020-12, the dialect of OpenAPI 3.1 schemas, not our code: `strict: false`
  // lets it skip OpenAPI's own keywords (`example`, `discriminator`...) that are no JSON Schema.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi.json');
  const routes = Object.keys(document.paths)
    .map((template) => ({
      template,
      pattern: new RegExp(
        `^${template
          .replace(/\/$/, '')
          .split(/\{[^}]+\}/)
          .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}/?$`,
      ),
      params: (template.match(/\{/g) ?? []).length,
    }))
    .sort((a, b) => a.params - b.params);
  loaded = {
    ajv,
    paths: document.paths,
    webhooks: document.webhooks ?? {},
    routes,
    validators: new Map(),
  };
  return loaded;
}

/** A JSON pointer segment inside a URI fragment. */
const segment = (name: string): string =>
  encodeURIComponent(name.replaceAll('~', '~0').replaceAll('/', '~1'));

/**
 * Problems of a live answer against the document: its operation (the `/api` alias is read as
 * `/v1`), a documented status, and for JSON a body valid against that status's schema. Empty
 * when it conforms.
 */
export function openApiProblems(res: LiveResponse): string[] {
  const { paths, routes } = load();
  const req = requestOf(res);
  const method = req.method.toLowerCase();
  const path = req.path.split('?')[0].replace(/^\/api(?=\/|$)/, '/v1');
  const route = routes.find((r) => r.pattern.test(path) && paths[r.template][method]);
  if (!route) {
    return [`${method.toUpperCase()} ${path} is no operation of the document`];
  }
  const operation = paths[route.template][method] as { responses: Record<string, unknown> };
  const status = String(res.status);
  if (!(status in operation.responses)) {
    return [`${method.toUpperCase()} ${route.template} does not document status ${status}`];
  }
  const type = String(res.headers['content-type'] ?? '');
  if (!type.startsWith('application/json')) {
    return [];
  }
  const content = (operation.responses[status] as { content?: Record<string, unknown> }).content;
  if (!content?.['application/json']) {
    return [`${method.toUpperCase()} ${route.template} ${status} documents no JSON body`];
  }
  const ref = `openapi.json#/paths/${segment(route.template)}/${method}/responses/${status}/content/${segment('application/json')}/schema`;
  return schemaProblems(ref, res.body, `${method.toUpperCase()} ${route.template} ${status}: body`);
}

/** What `value` breaks of the schema at `ref` (a URI into the document), each behind `label`. */
function schemaProblems(ref: string, value: unknown, label: string): string[] {
  const { ajv, validators } = load();
  let validate = validators.get(ref);
  if (validate === undefined) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  if (validate(value)) {
    return [];
  }
  return (validate.errors ?? []).map(
    (e) =>
      `${label}${e.instancePath} ${e.message ?? ''}${
        e.params && Object.keys(e.params).length > 0 ? ` ${JSON.stringify(e.params)}` : ''
      }`,
  );
}

/** A request Linkdock sent to a webhook handler, as a test receiver recorded it. */
export interface SentWebhook {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Problems of a delivered event against the document's `webhooks` entry for its `event`: each
 * required header present and valid, and the JSON body valid against the payload schema.
 */
export function webhookProblems(sent: SentWebhook): string[] {
  const { webhooks } = load();
  const body = JSON.parse(sent.body) as { event?: unknown };
  const event = String(body.event);
  const post = webhooks[event]?.post;
  if (post === undefined) {
    return [`the event ${event} is no webhook of the document`];
  }
  const base = `openapi.json#/webhooks/${segment(event)}/post`;
  const problems: string[] = [];
  (post.parameters ?? []).forEach((parameter, index) => {
    if (parameter.in !== 'header') return;
    const value = sent.headers[parameter.name.toLowerCase()];
    if (value === undefined) {
      if (parameter.required) problems.push(`${event}: the ${parameter.name} header is missing`);
      return;
    }
    problems.push(
      ...schemaProblems(`${base}/parameters/${index}/schema`, value, `${event}: ${parameter.name}`),
    );
  });
  problems.push(
    ...schemaProblems(
      `${base}/requestBody/content/${segment('application/json')}/schema`,
      body,
      `${event}: body`,
    ),
  );
  return problems;
}

/** Passes a delivered event through `webhookProblems`; the test fails naming each problem. */
export function expectWebhookDocumented(sent: SentWebhook): void {
  const problems = webhookProblems(sent);
  if (problems.length > 0) {
    throw new Error(`The delivery does not match docs/openapi.json:\n${problems.join('\n')}`);
  }
}

/** Passes a live answer through `openApiProblems`; the test fails naming each problem. */
export function expectDocumented<T extends LiveResponse>(res: T): T {
  const problems = openApiProblems(res);
  if (problems.length > 0) {
    throw new Error(`The answer does not match docs/openapi.json:\n${problems.join('\n')}`);
  }
  return res;
}
