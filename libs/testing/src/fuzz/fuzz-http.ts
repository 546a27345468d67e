import type TestAgent from 'supertest/lib/agent';
import type { HttpRequest } from './request-arbitrary';

/** What came back; `status` null when nothing did (timeout, connection dropped). */
export interface Outcome {
  status: number | null;
  body: unknown;
  text: string;
  requestId: string | null;
  ms: number;
  /** Why there is no status. */
  error: string | null;
}

export interface Failure {
  /** `POST /v1/links` or `visit`. */
  scope: string;
  request: string;
  status: number | null;
  problem: string;
  response: string;
  requestId: string | null;
}

/**
 * Sends one request through supertest (the in-process server), never following redirects.
 * Returns null when Node refuses to send it at all (a header value it cannot write).
 */
export async function send(
  agent: TestAgent,
  req: HttpRequest,
  timeoutMs: number,
): Promise<Outcome | null> {
  const started = Date.now();
  let call;
  try {
    call = agent[req.method](req.url).redirects(0).timeout({ response: timeoutMs });
    for (const [name, value] of Object.entries(req.headers)) {
      call = call.set(name, value);
    }
  } catch {
    return null;
  }
  if (req.body !== null) {
    // The bytes as they are: superagent would serialize a Buffer with a JSON type as JSON.
    call = call
      .serialize((data: unknown) => data as string)
      .send(typeof req.body === 'string' ? Buffer.from(req.body) : req.body);
  }
  try {
    const res = await call;
    return {
      status: res.status,
      body: res.body,
      text: typeof res.text === 'string' ? res.text : '',
      requestId: res.headers['x-request-id'] ?? null,
      ms: Date.now() - started,
      error: null,
    };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_INVALID_CHAR' || code === 'ERR_UNESCAPED_CHARACTERS') {
      return null;
    }
    return {
      status: null,
      body: null,
      text: '',
      requestId: null,
      ms: Date.now() - started,
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

/** Why a 4xx body breaks the contract's error shape, or null when it keeps it. */
export function errorShapeProblem(status: number, body: unknown): string | null {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) {
    return 'the body has no non-empty `errors` array';
  }
  for (const entry of errors as unknown[]) {
    const e = (entry ?? {}) as Record<string, unknown>;
    if (e.status !== status) {
      return `an entry's status is ${JSON.stringify(e.status)}, not ${status}`;
    }
    if (typeof e.title !== 'string' || e.title === '') {
      return 'an entry has no string title';
    }
    if ('field' in e && typeof e.field !== 'string') {
      return `an entry's field is ${JSON.stringify(e.field)}, not a string`;
    }
    if (typeof e.code !== 'string') {
      return 'an entry has no string code';
    }
  }
  return null;
}

/** The failure an API answer is, if any: no answer, a 5xx, or a 4xx without the error shape. */
export function apiProblem(outcome: Outcome): string | null {
  if (outcome.status === null) {
    return `no answer (${outcome.error ?? 'unknown'})`;
  }
  if (outcome.status >= 500) {
    return `status ${outcome.status}`;
  }
  if (outcome.status >= 400) {
    const problem = errorShapeProblem(outcome.status, outcome.body);
    return problem && `${outcome.status} without the error shape: ${problem}`;
  }
  return null;
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/** One line a person can replay: method, URL, content type, body (escaped, truncated). */
export function describeRequest(req: HttpRequest, max = 400): string {
  const body =
    req.body === null
      ? ''
      : ` body=${JSON.stringify(truncate(typeof req.body === 'string' ? req.body : req.body.toString('latin1'), max))}`;
  const headers = Object.entries(req.headers)
    .filter(([k]) => k !== 'Authorization')
    .map(([k, v]) => `${k}: ${truncate(v, 80)}`)
    .join('; ');
  return `${req.method.toUpperCase()} ${truncate(req.url, 300)}${headers ? ` [${headers}]` : ''}${body}`;
}

export function describeResponse(outcome: Outcome): string {
  if (outcome.status === null) {
    return outcome.error ?? '';
  }
  const body =
    outcome.body && typeof outcome.body === 'object' && Object.keys(outcome.body).length > 0
      ? JSON.stringify(outcome.body)
      : outcome.text;
  return truncate(body, 300);
}

/** Failures grouped by scope, status and the first line of the answer, one example each. */
export function formatFailures(failures: Failure[], header: string, limit = 12): string {
  const groups = new Map<string, { first: Failure; count: number }>();
  for (const f of failures) {
    const key = `${f.scope} | ${f.status ?? 'no answer'} | ${f.problem.replace(/\d+/g, 'N')} | ${f.response.replace(/\d+/g, 'N').slice(0, 120)}`;
    const group = groups.get(key);
    if (group) {
      group.count += 1;
    } else {
      groups.set(key, { first: f, count: 1 });
    }
  }
  const lines = [header];
  for (const { first, count } of [...groups.values()].slice(0, limit)) {
    lines.push(
      `- ${first.scope}: ${first.problem} (${count}x)`,
      `    request:  ${first.request}`,
      `    response: ${first.response}${first.requestId ? ` [X-Request-Id ${first.requestId}]` : ''}`,
    );
  }
  if (groups.size > limit) {
    lines.push(`… and ${groups.size - limit} more kinds of failure`);
  }
  return lines.join('\n');
}
