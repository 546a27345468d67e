#!/usr/bin/env node
// npm run bench:events [-- --db sqlite|postgres --seconds 5 --concurrency 8 --bulk 5]
//
// Starts the built server (WORKER=internal: its dispatcher delivers) on a fresh database and a
// local webhook receiver in this process, then:
//  1. single POST /v1/links from `concurrency` clients for `seconds`, first with no handler (the
//     baseline), then with a webhook handler subscribed to link.created: links/s of both and
//     their ratio (what raising and delivering events costs the write path), and the delay from
//     each POST's answer (the commit) to its event reaching the receiver, p50/p99;
//  2. `bulk` POST /v1/links/bulk of 1,000 links each: deliveries per second from the first
//     request to the last event received.
// Numbers only: nothing here is asserted on timing.
'use strict';
const { createServer } = require('node:http');
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { createPostgresSchema, parseArgs, startBuiltApi } = require('./lib');

const args = parseArgs(process.argv.slice(2));
const db = args.db ?? 'sqlite';
const SECONDS = Number(args.seconds ?? 5);
const CONCURRENCY = Number(args.concurrency ?? 8);
const BULK = Number(args.bulk ?? 5);

/** The receiver: when each link's event arrived, by link id. */
function startReceiver() {
  const arrived = new Map();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (!arrived.has(body.data.id)) arrived.set(body.data.id, at);
      } catch {
        // not an event
      }
      res.writeHead(200).end('ok');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, arrived, url: `http://127.0.0.1:${server.address().port}/hook` }),
    ),
  );
}

let counter = 0;
async function singles(base, key) {
  const committed = new Map();
  const until = Date.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until) {
        const res = await fetch(`${base}/v1/links`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ location_url: `https://example.com/e/${(counter += 1)}` }),
        });
        const body = await res.json();
        if (res.status === 201) committed.set(body.data.id, performance.now());
      }
    }),
  );
  return { committed, seconds: (performance.now() - started) / 1000 };
}

async function waitUntil(check, ms) {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

async function main() {
  const port = 3904;
  const receiver = await startReceiver();
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'linkdock-bench-events-')),
    LOG_LEVEL: 'warn',
    API_RATE_LIMIT: '1000000',
    ALLOW_PRIVATE_WEBHOOKS: '1',
    WORKER: 'internal',
  };
  let schema = null;
  if (db === 'postgres') {
    schema = await createPostgresSchema('bench_events');
    env.DATABASE_URL = schema.url;
    env.SECRETS_KEY = require('node:crypto').randomBytes(32).toString('base64');
  }
  const { base, key, stop } = await startBuiltApi(env, port);
  try {
    await singles(base, key); // warm-up, no handler
    const baseline = await singles(base, key);
    const made = await fetch(`${base}/v1/notification-handlers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'bench',
        type: 'webhook',
        webhook: receiver.url,
        events: ['link.created'],
      }),
    });
    if (made.status !== 201) throw new Error(`handler: ${made.status} ${await made.text()}`);

    const withEvents = await singles(base, key);
    const ids = [...withEvents.committed.keys()];
    const allIn = await waitUntil(() => ids.every((id) => receiver.arrived.has(id)), 60_000);
    const delays = ids
      .filter((id) => receiver.arrived.has(id))
      .map((id) => receiver.arrived.get(id) - withEvents.committed.get(id))
      .sort((a, b) => a - b);

    const bulkIds = [];
    const bulkStarted = performance.now();
    for (let b = 0; b < BULK; b += 1) {
      const res = await fetch(`${base}/v1/links/bulk`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(
          Array.from({ length: 1000 }, () => ({
            location_url: `https://example.com/b/${(counter += 1)}`,
          })),
        ),
      });
      const body = await res.json();
      if (res.status !== 201) throw new Error(`bulk: ${res.status} ${JSON.stringify(body)}`);
      bulkIds.push(...body.data.map((l) => l.id));
    }
    const bulkAllIn = await waitUntil(
      () => bulkIds.every((id) => receiver.arrived.has(id)),
      120_000,
    );
    const lastArrival = Math.max(...bulkIds.map((id) => receiver.arrived.get(id) ?? 0));
    const bulkSeconds = (lastArrival - bulkStarted) / 1000;

    const baseRate = baseline.committed.size / baseline.seconds;
    const eventRate = withEvents.committed.size / withEvents.seconds;
    console.log(`database: ${db}`);
    console.log(
      `POST /v1/links, no handler           ${Math.round(baseRate)} links/s (baseline, ${CONCURRENCY} clients)`,
    );
    console.log(
      `POST /v1/links, link.created → hook  ${Math.round(eventRate)} links/s (${(eventRate / baseRate).toFixed(2)}x the baseline)`,
    );
    console.log(
      `commit → received                    p50 ${pct(delays, 0.5).toFixed(1)} ms, p99 ${pct(delays, 0.99).toFixed(1)} ms, max ${delays[delays.length - 1].toFixed(1)} ms (${delays.length} of ${ids.length} events${allIn ? '' : ', some never arrived'})`,
    );
    console.log(
      `bulk: ${bulkIds.length} events delivered in ${bulkSeconds.toFixed(2)} s: ${Math.round(bulkIds.length / bulkSeconds)} deliveries/s${bulkAllIn ? '' : ' (some never arrived)'}`,
    );
  } finally {
    await stop();
    receiver.server.close();
    if (schema) await schema.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
