'use strict';
// Helpers shared by the benchmarks.
const { readdirSync, readFileSync } = require('node:fs');

/**
 * `--name value` pairs; a `--flag` followed by another option (or by nothing) is `true`.
 * `--name=value` takes a value that starts with `--` itself (`--node-options=--max-semi-space-size=16`).
 */
function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 1) {
    const equals = /^--([^=]+)=(.*)$/s.exec(argv[i]);
    if (equals) {
      out[equals[1]] = equals[2];
      continue;
    }
    const name = argv[i].replace(/^--/, '');
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) {
      out[name] = true;
    } else {
      out[name] = next;
      i += 1;
    }
  }
  return out;
}

/**
 * The node options the Docker image starts the API with (the flags between `node` and
 * `dist/apps/api/src/main.js` in the Dockerfile's CMD, such as `--max-semi-space-size=16`), so that
 * the benchmarks measure the server as it is shipped. Empty when the CMD has none.
 */
function serverNodeFlags() {
  let dockerfile = '';
  try {
    dockerfile = readFileSync(require('node:path').join(__dirname, '..', 'Dockerfile'), 'utf8');
  } catch {
    return [];
  }
  for (const [, json] of dockerfile.matchAll(/^CMD\s+(\[.*\])\s*$/gm)) {
    let argv;
    try {
      argv = JSON.parse(json);
    } catch {
      continue;
    }
    const entry = argv.indexOf('dist/apps/api/src/main.js');
    if (argv[0] === 'node' && entry > 0) return argv.slice(1, entry);
  }
  return [];
}

/** Resolves once the URL answers with anything below 500. */
async function waitForUrl(url, ms = 60_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

/** The connection string of a fresh PostgreSQL schema, and a function that drops it. */
async function createPostgresSchema(prefix) {
  const { Client } = require('pg');
  const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `${prefix}_${process.pid}`;
  const run = async (sql) => {
    const client = new Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE SCHEMA ${schema}`);
  return {
    url: `${base}${base.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`,
    drop: () => run(`DROP SCHEMA ${schema} CASCADE`),
  };
}

/**
 * Starts the built API with `env` on 127.0.0.1:`port`, waits until it answers and has printed
 * its first API key; `stop()` sends SIGTERM and waits for the exit. `main` is another build's
 * entry point (a benchmark comparing two builds in one run), by default this one's; `nodeArgs`
 * go to node before it (`--cpu-prof`). The server's stdout (its JSON log) goes to a file, as it
 * would in production, not through a pipe that this process (which also runs the load) must read.
 */
async function startBuiltApi(env, port, main = null, nodeArgs = []) {
  const { spawn } = require('node:child_process');
  const { closeSync, mkdtempSync, openSync, rmSync } = require('node:fs');
  const { tmpdir } = require('node:os');
  const { join } = require('node:path');
  const entry = main ?? join(__dirname, '..', 'dist/apps/api/src/main.js');
  const logDir = mkdtempSync(join(tmpdir(), 'linkdock-bench-log-'));
  const logFile = join(logDir, 'stdout.log');
  const fd = openSync(logFile, 'w');
  const server = spawn(process.execPath, [...serverNodeFlags(), ...nodeArgs, entry], {
    env,
    stdio: ['ignore', fd, 'inherit'],
  });
  closeSync(fd);
  const output = () => readFileSync(logFile, 'utf8');
  const base = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise((resolve) => {
      const done = () => {
        rmSync(logDir, { recursive: true, force: true });
        resolve();
      };
      if (server.exitCode !== null || server.signalCode !== null) return done();
      server.once('exit', done);
      server.kill('SIGTERM');
    });
  let key = null;
  try {
    await waitForUrl(`${base}/health`);
    while (!(key = /ld_[A-Za-z0-9_-]{20,}/.exec(output())?.[0] ?? null)) {
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { server, base, key, stop };
}

/**
 * An autocannon result in short: req/s, p50, p99, the answers of the expected class (`2xx` for
 * pages and API calls, `3xx` for redirects) as `ok`, and every other answer, error or timeout.
 */
function summarize(result, expected) {
  const classes = ['1xx', '2xx', '3xx', '4xx', '5xx'];
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result[expected] ?? 0,
    other:
      classes.filter((c) => c !== expected).reduce((sum, c) => sum + (result[c] ?? 0), 0) +
      result.errors +
      result.timeouts,
  };
}

/** Resolves with a child process's exit code (or signal) once it has exited. */
function exitOf(child) {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
}

/** CPU time (clock ticks, user + system) of each thread of a process, by thread id (Linux). */
function threadTicks(pid) {
  const ticks = new Map();
  let tids = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return ticks;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(Number(tid), Number(fields[11]) + Number(fields[12]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return ticks;
}

/**
 * Where a process's CPU went between two threadTicks snapshots, in % of one core: its main
 * thread (whose id is the process id), its busiest other thread, and all the others together.
 */
function threadCpu(pid, before, after, seconds) {
  const percent = (ticks) => Math.round(ticks / seconds); // 100 ticks a second on Linux
  let main = 0;
  let busiest = 0;
  let others = 0;
  for (const [tid, ticks] of after) {
    const used = ticks - (before.get(tid) ?? 0);
    if (tid === pid) main = used;
    else if (used > busiest) {
      others += busiest;
      busiest = used;
    } else others += used;
  }
  return { main: percent(main), busiest: percent(busiest), others: percent(others) };
}

/**
 * The environment of a Linkdock server started by a bench on `port`, with a fresh DATA_DIR, and
 * on PostgreSQL a fresh schema (named from `prefix`), Redis (unless `redis` is false) and a
 * SECRETS_KEY. `extra` is added to the environment. `cleanUp()` drops the schema and removes the
 * directory.
 */
async function benchServerEnv({ port, db, prefix, extra = {}, redis = true }) {
  const { mkdtempSync, rmSync } = require('node:fs');
  const { tmpdir } = require('node:os');
  const { join } = require('node:path');
  const dataDir = mkdtempSync(join(tmpdir(), `linkdock-${prefix}-`));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ADMIN_EMAIL: 'bench@example.com',
    ...extra,
  };
  let schema = null;
  if (db === 'postgres') {
    schema = await createPostgresSchema(prefix.replace(/[^a-z0-9_]/gi, '_'));
    env.DATABASE_URL = schema.url;
    if (redis) env.REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
    env.SECRETS_KEY = require('node:crypto').randomBytes(32).toString('base64');
  }
  const cleanUp = async () => {
    if (schema) await schema.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { env, dataDir, cleanUp };
}

module.exports = {
  benchServerEnv,
  parseArgs,
  serverNodeFlags,
  waitForUrl,
  createPostgresSchema,
  startBuiltApi,
  summarize,
  exitOf,
  threadTicks,
  threadCpu,
};
