'use strict';
// Helpers shared by the benchmarks.

/** `--name value` pairs as an object. */
/** `--name value` pairs; a `--flag` followed by another option (or by nothing) is `true`. */
function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 1) {
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
 * its first API key; `stop()` sends SIGTERM and waits for the exit.
 */
async function startBuiltApi(env, port) {
  const { spawn } = require('node:child_process');
  const { join } = require('node:path');
  const server = spawn(process.execPath, [join(__dirname, '..', 'dist/apps/api/src/main.js')], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  server.stdout.on('data', (chunk) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise((resolve) => {
      if (server.exitCode !== null) return resolve();
      server.once('exit', resolve);
      server.kill('SIGTERM');
    });
  try {
    await waitForUrl(`${base}/health`);
    while (!/ld_[A-Za-z0-9_-]{20,}/.test(output)) await new Promise((r) => setTimeout(r, 100));
  } catch (error) {
    await stop();
    throw error;
  }
  return { server, base, key: /ld_[A-Za-z0-9_-]{20,}/.exec(output)[0], stop };
}

module.exports = { parseArgs, waitForUrl, createPostgresSchema, startBuiltApi };
