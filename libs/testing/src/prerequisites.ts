import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { GlobalConfig } from 'jest';
import { Client } from 'pg';
import { chromiumPath } from './browser';
import { TEST_POSTGRES_URL } from './postgres-admin';

/*
 * What the e2e suites need from the machine, checked before they start (test/global-setup-*.ts,
 * which Jest runs only for a project with tests to run) so that a missing one is named, with the
 * way to get it, above the failures it causes. Missing ones are reported, not skipped: the suites
 * that need them still run and fail.
 */

export type E2eProject = 'e2e-sqlite' | 'e2e-postgres';

interface Prerequisite {
  name: string;
  /** Whether a suite of this project needs it, from the suite's file name and source. */
  neededBy(project: E2eProject, file: string, source: string): boolean;
  /** Why it is missing and how to get it, or undefined when it is there. */
  check(): Promise<string | undefined> | string | undefined;
}

const TEST_DIR = join(__dirname, '..', '..', '..', 'test');
const MAIN = join(__dirname, '..', '..', '..', 'dist', 'apps', 'api', 'src', 'main.js');
const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const TIMEOUT_MS = 2000;
/** The suites that start the built server. */
const STARTS_BUILT = /(boot|docs-examples)\.e2e-spec\.ts$/;

const PREREQUISITES: Prerequisite[] = [
  {
    name: 'built server',
    neededBy: (project, file) => project === 'e2e-sqlite' && STARTS_BUILT.test(file),
    check: () =>
      existsSync(MAIN)
        ? undefined
        : 'dist/apps/api/src/main.js is missing, so test/boot.e2e-spec.ts and test/docs-examples.e2e-spec.ts will fail: run `npm run build` (npm test does it first).',
  },
  {
    name: 'curl',
    neededBy: (project, file) =>
      project === 'e2e-sqlite' && file.endsWith('docs-examples.e2e-spec.ts'),
    check: () =>
      spawnSync('sh', ['-c', 'command -v curl && command -v bash'], { stdio: 'ignore' }).status ===
      0
        ? undefined
        : 'curl or bash is not installed, so test/docs-examples.e2e-spec.ts (the docs run their examples with them) will fail: `sudo apt-get install curl`.',
  },
  {
    name: 'Chromium',
    neededBy: (project, _file, source) =>
      project === 'e2e-sqlite' && source.includes('launchChromium('),
    check: checkChromium,
  },
  { name: 'PostgreSQL', neededBy: (project) => project === 'e2e-postgres', check: checkPostgres },
  {
    name: 'Redis',
    neededBy: (_project, _file, source) => source.includes('TEST_REDIS_URL'),
    check: checkRedis,
  },
];

/** Shared by both projects' setups and the teardown (one process, modules may load twice). */
const state = globalThis as { linkdockPrerequisites?: { checked: Set<string>; missing: string[] } };

/**
 * Checks what the selected suites of `project` need and was not checked yet (for the other
 * project), and prints one line per missing prerequisite to stderr.
 */
export async function reportMissingPrerequisites(
  project: E2eProject,
  globalConfig: GlobalConfig,
): Promise<void> {
  state.linkdockPrerequisites ??= { checked: new Set(), missing: [] };
  const { checked, missing } = state.linkdockPrerequisites;
  const suites = selectedSuites(globalConfig);
  const due = PREREQUISITES.filter(
    (p) =>
      !checked.has(p.name) && suites.some((suite) => p.neededBy(project, suite.file, suite.source)),
  );
  due.forEach((p) => checked.add(p.name));
  const problems = await Promise.all(due.map((p) => Promise.resolve(p.check())));
  for (const problem of problems) {
    if (problem) {
      const line = `Missing prerequisite: ${problem}`;
      missing.push(line);
      process.stderr.write(`${line}\n`);
    }
  }
}

/** The lines printed before the run, again after it (the failures they cause push them away). */
export function repeatMissingPrerequisites(): void {
  const missing = state.linkdockPrerequisites?.missing ?? [];
  if (missing.length > 0) {
    process.stderr.write(`\n${missing.join('\n')}\n`);
  }
}

/**
 * The e2e suites the command line's path patterns select. When in doubt (no patterns, or
 * --findRelatedTests, whose arguments are source files), every suite: a needless line is better
 * than a missing one.
 */
function selectedSuites(globalConfig: GlobalConfig): Array<{ file: string; source: string }> {
  const patterns = globalConfig.testPathPatterns;
  const executor =
    patterns.isSet() && !globalConfig.findRelatedTests
      ? patterns.toExecutor({ rootDir: globalConfig.rootDir })
      : undefined;
  return readdirSync(TEST_DIR, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.e2e-spec.ts'))
    .map((name) => join(TEST_DIR, name))
    .filter((file) => executor?.isMatch(file) ?? true)
    .map((file) => ({ file, source: readFileSync(file, 'utf8') }));
}

function checkChromium(): string | undefined {
  const path = chromiumPath();
  const install =
    'install it (`sudo apt-get install chromium`) or set CHROMIUM_PATH to a Chromium binary';
  if (!existsSync(path)) {
    return `Chromium is not at ${path}, so the browser suites (test/*-browser.e2e-spec.ts) will fail: ${install}.`;
  }
  const run = spawnSync(path, ['--version'], { timeout: 10_000, encoding: 'utf8' });
  if (run.error || run.status !== 0) {
    const reason =
      run.error?.message ?? (run.stderr.trim().split('\n').pop() || `exit ${run.status}`);
    return `Chromium at ${path} does not start (${reason}), so the browser suites (test/*-browser.e2e-spec.ts) will fail: ${install}.`;
  }
  return undefined;
}

async function checkPostgres(): Promise<string | undefined> {
  const url = new URL(TEST_POSTGRES_URL);
  if (url.password) {
    url.password = '***';
  }
  const client = new Client({
    connectionString: TEST_POSTGRES_URL,
    connectionTimeoutMillis: TIMEOUT_MS,
    query_timeout: TIMEOUT_MS,
  });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    const database = url.pathname.slice(1);
    const fix =
      (error as { code?: string }).code === '3D000'
        ? `create the database: \`createdb -h ${url.hostname} -p ${url.port || 5432} -U ${url.username || 'postgres'} ${database}\``
        : `start PostgreSQL with a \`${database}\` database (Debian: \`sudo apt-get install postgresql\`, then \`sudo -u postgres createdb ${database}\`) or set TEST_DATABASE_URL`;
    return `PostgreSQL is not usable at ${url.href} (${reasonOf(error)}), so the e2e-postgres suites will fail: ${fix}; or run only SQLite: \`npm run test:sqlite\`.`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function checkRedis(): Promise<string | undefined> {
  const url = new URL(TEST_REDIS_URL);
  const reason = await new Promise<string | undefined>((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port || 6379) });
    socket.setTimeout(TIMEOUT_MS, () => {
      socket.destroy();
      resolve(`no answer in ${TIMEOUT_MS} ms`);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', (error) => resolve(reasonOf(error)));
  });
  if (url.password) {
    url.password = '***';
  }
  return reason
    ? `Redis is not reachable at ${url.href} (${reason}), so the health, rate-limit and edge suites will fail: start it (\`sudo apt-get install redis-server\`, \`redis-server --daemonize yes\`) or set TEST_REDIS_URL.`
    : undefined;
}

/** Node reports a refused connection to several addresses as an AggregateError with no message. */
function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return reasonOf(error.errors[0]);
  }
  if (error instanceof Error) {
    return error.message || (error as { code?: string }).code || error.name;
  }
  return String(error);
}
