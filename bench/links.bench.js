#!/usr/bin/env node
// npm run bench:links [-- --db sqlite|postgres --seconds 5 --batches 20 --concurrency 8 --import 100000]
//
// Starts the built server on a fresh database and measures link creation over HTTP: single
// POST /v1/links (`concurrency` clients in a loop for `seconds`), then POST /v1/links/bulk with
// 1,000 links a request (`batches` requests, one at a time), and prints links per second of each
// and their ratio. Then stops the server and times `npm run cli -- import --from csv` of a
// generated file of `import` rows into the same database, and the same import again (which must
// create nothing). Numbers only: nothing here is asserted on timing.
'use strict';
const { spawnSync } = require('node:child_process');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { benchServerEnv, parseArgs, startBuiltApi } = require('./lib');

const root = join(__dirname, '..');
const args = parseArgs(process.argv.slice(2));
const db = args.db ?? 'sqlite';
const SECONDS = Number(args.seconds ?? 5);
const BATCHES = Number(args.batches ?? 20);
const CONCURRENCY = Number(args.concurrency ?? 8);
const IMPORT_ROWS = Number(args.import ?? 100_000);
const BATCH = 1000;

let counter = 0;
const nextUrl = () => `https://example.com/bench/${(counter += 1)}?ref=bench`;

async function singles(base, key) {
  const until = Date.now() + SECONDS * 1000;
  let created = 0;
  let failed = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until) {
        const res = await fetch(`${base}/v1/links`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ location_url: nextUrl() }),
        });
        await res.arrayBuffer();
        if (res.status === 201) created += 1;
        else failed += 1;
      }
    }),
  );
  return { created, failed, seconds: (Date.now() - started) / 1000 };
}

async function batches(base, key) {
  let created = 0;
  let failed = 0;
  const times = [];
  const started = Date.now();
  for (let b = 0; b < BATCHES; b += 1) {
    const body = Array.from({ length: BATCH }, (_, i) =>
      i % 2 === 0
        ? { location_url: nextUrl() }
        : { location_url: nextUrl(), url: `bench-${b}-${i}`, utm_source: 'bench' },
    );
    const t0 = Date.now();
    const res = await fetch(`${base}/v1/links/bulk`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = await res.json();
    times.push(Date.now() - t0);
    if (res.status === 201) created += answer.data.length;
    else {
      failed += 1;
      console.error(JSON.stringify(answer).slice(0, 500));
    }
  }
  times.sort((a, b) => a - b);
  return {
    created,
    failed,
    seconds: (Date.now() - started) / 1000,
    p50: times[Math.floor(times.length / 2)],
    max: times[times.length - 1],
  };
}

function cli(env, argv) {
  const t0 = Date.now();
  const run = spawnSync(process.execPath, [join(root, 'dist/apps/cli/src/main.js'), ...argv], {
    env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const seconds = (Date.now() - t0) / 1000;
  if (run.status !== 0) throw new Error(`cli ${argv.join(' ')} failed: ${run.stderr}`);
  const lines = run.stdout.trim().split('\n');
  return { seconds, result: JSON.parse(lines[lines.length - 1]) };
}

async function main() {
  const port = 3903;
  const { env, dataDir, cleanUp } = await benchServerEnv({
    port,
    db,
    prefix: 'bench_links',
    extra: { LOG_LEVEL: 'warn', API_RATE_LIMIT: '1000000' },
    redis: false,
  });
  const { base, key, stop } = await startBuiltApi(env, port);
  try {
    await singles(base, key); // warm-up
    const single = await singles(base, key);
    const bulk = await batches(base, key);
    const singleRate = single.created / single.seconds;
    const bulkRate = bulk.created / bulk.seconds;
    console.log(`database: ${db}`);
    console.log(
      `POST /v1/links        ${Math.round(singleRate)} links/s (${single.created} in ${single.seconds.toFixed(1)} s, ${CONCURRENCY} clients, ${single.failed} failed)`,
    );
    console.log(
      `POST /v1/links/bulk   ${Math.round(bulkRate)} links/s (${bulk.created} in ${bulk.seconds.toFixed(1)} s, ${BATCH} a request, p50 ${bulk.p50} ms, max ${bulk.max} ms, ${bulk.failed} failed)`,
    );
    console.log(`bulk / single         ${(bulkRate / singleRate).toFixed(1)}x`);
  } finally {
    await stop();
  }

  if (IMPORT_ROWS > 0) {
    const file = join(dataDir, 'import.csv');
    const lines = ['location_url,url,title,tags,created_at,clicks,type,full_url'];
    for (let i = 0; i < IMPORT_ROWS; i += 1) {
      lines.push(`https://example.com/import/${i},imp-${i},,,2024-01-01 00:00:00,${i % 100},link,`);
    }
    writeFileSync(file, `${lines.join('\r\n')}\r\n`);
    const first = cli(env, ['import', '--email', 'bench@example.com', '--from', 'csv', file]);
    const again = cli(env, ['import', '--email', 'bench@example.com', '--from', 'csv', file]);
    console.log(
      `import --from csv     ${IMPORT_ROWS} rows in ${first.seconds.toFixed(1)} s (${Math.round(IMPORT_ROWS / first.seconds)} rows/s): created ${first.result.created}, skipped ${first.result.skipped}, failed ${first.result.failed.length}`,
    );
    console.log(
      `  the same again      ${again.seconds.toFixed(1)} s: created ${again.result.created}, skipped ${again.result.skipped}, failed ${again.result.failed.length}`,
    );
    const exported = cli(env, [
      'export',
      'links',
      '--email',
      'bench@example.com',
      '--format',
      'csv',
      '--output',
      join(dataDir, 'export.csv'),
    ]);
    console.log(
      `export links --csv    ${exported.result.exported} links in ${exported.seconds.toFixed(1)} s`,
    );
  }
  await cleanUp();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
