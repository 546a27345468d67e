import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** The variables of a `.env` file next to a compose file: what its `${...}` may use. */
export type DotEnv = Readonly<Record<string, string>>;

export interface ComposeService {
  image?: string;
  build?: string | { context?: string };
  command?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
}

/**
 * The services of a compose file as `docker compose config` sees them, for what the tests check:
 * YAML with `<<` merge keys resolved, then every value under `services` interpolated from `dotEnv`
 * alone (no shell variables), so the result depends on the file and the map only.
 */
export function readComposeServices(file: string, dotEnv: DotEnv): Record<string, ComposeService> {
  const doc: unknown = parse(readFileSync(file, 'utf8'), { merge: true });
  if (!isRecord(doc) || !isRecord(doc.services)) {
    throw new Error(`${file} has no services`);
  }
  return interpolateValues(doc.services, dotEnv) as Record<string, ComposeService>;
}

/** A service's `environment` as the container gets it; a bare name (shell pass-through) is left out. */
export function serviceEnvironment(service: ComposeService): Record<string, string> {
  const entries = Array.isArray(service.environment)
    ? service.environment.map((line) => [
        line.slice(0, line.indexOf('=')),
        line.slice(line.indexOf('=') + 1),
      ])
    : Object.entries(service.environment ?? {}).filter(([, value]) => value !== null);
  return Object.fromEntries(entries.map(([name, value]) => [name, String(value)]));
}

/**
 * Compose's interpolation of one value, for the forms the file may use: `${VAR}`, `${VAR:-default}`
 * and `${VAR-default}`, `${VAR:?message}` and `${VAR?message}` (which fail with the message, as
 * `docker compose` does), and `$$` for a literal `$`. Anything else (`$VAR`, nesting) is refused
 * rather than guessed at.
 */
export function interpolate(value: string, dotEnv: DotEnv): string {
  return value.replace(
    /\$(\$|\{([^}]*)\}|)/g,
    (whole, body: string, braced: string | undefined) => {
      if (body === '$') {
        return '$';
      }
      const parts = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^$]*))?$/.exec(braced ?? '');
      if (parts === null) {
        throw new Error(`Unsupported interpolation ${whole} in "${value}"`);
      }
      const [, name = '', colon, operator, argument] = parts as (string | undefined)[];
      const raw = dotEnv[name];
      const missing = raw === undefined || (colon === ':' && raw === '');
      if (operator === undefined || !missing) {
        return raw ?? '';
      }
      if (operator === '-') {
        return argument ?? '';
      }
      throw new Error(`required variable ${name} is missing a value: ${argument ?? ''}`);
    },
  );
}

/** The ENV and CMD of a Dockerfile's last stage: what a container of the image starts with. */
export function readDockerfileRuntime(file: string): {
  env: Record<string, string>;
  cmd: string[];
} {
  const instructions = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => /^\s*([A-Za-z]+)\s+(.*)$/.exec(line))
    .filter((match) => match !== null)
    .map(([, keyword, rest]) => ({ keyword: keyword.toUpperCase(), rest: rest.trim() }));
  const lastStage = instructions.slice(instructions.map((i) => i.keyword).lastIndexOf('FROM'));
  const env: Record<string, string> = {};
  let cmd: string[] = [];
  for (const { keyword, rest } of lastStage) {
    if (keyword === 'ENV') {
      Object.assign(env, parseEnvInstruction(rest));
    } else if (keyword === 'CMD') {
      cmd = JSON.parse(rest) as string[];
    }
  }
  return { env, cmd };
}

/** `ENV A=1 B="two words"`; the old `ENV A 1` form and `$` references are refused. */
function parseEnvInstruction(rest: string): Record<string, string> {
  const pair = /\s*([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\$]|\\.)*"|[^\s"$]*)/y;
  const env: Record<string, string> = {};
  let position = 0;
  for (let match = pair.exec(rest); match !== null; match = pair.exec(rest)) {
    const [, name, value] = match;
    env[name] = value.startsWith('"') ? (JSON.parse(value) as string) : value;
    position = pair.lastIndex;
  }
  if (rest.slice(position).trim() !== '' || position === 0) {
    throw new Error(`Unsupported ENV instruction: ENV ${rest}`);
  }
  return env;
}

function interpolateValues(value: unknown, dotEnv: DotEnv): unknown {
  if (typeof value === 'string') {
    return interpolate(value, dotEnv);
  }
  if (Array.isArray(value)) {
    return value.map((item) => interpolateValues(item, dotEnv));
  }
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, interpolateValues(item, dotEnv)]),
    );
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
