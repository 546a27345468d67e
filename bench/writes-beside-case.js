'use strict';
// The "beside writes" case of bench:redirect (kept in its own file): redirects of one link while
// the API creates links at the same time (POST /v1/links on a few connections of their own), next
// to the same build's redirects with nothing beside them, in the same run. Whatever the API's
// writes do on the event loop (a transaction's statements, SQLite's checkpoints) holds redirects
// up: the ratio says how much of the edge is left while an import or a dashboard writes.
const autocannon = require('autocannon');
const { benchServerEnv, startBuiltApi, summarize } = require('./lib');

const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** Connections that create links while the redirects run. */
const WRITERS = 5;

function run(options) {
  return new Promise((resolve, reject) => {
    autocannon({ pipelining: 1, ...options }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

async function measure(name, main, { db, duration, connections }) {
  const port = 3921;
  const { env, cleanUp } = await benchServerEnv({
    port,
    db,
    prefix: 'bench-writes',
    extra: { API_RATE_LIMIT: '1000000' },
  });
  let api = null;
  try {
    api = await startBuiltApi(env, port, main);
    const auth = { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' };
    const created = await fetch(`${api.base}/v1/links`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ location_url: 'https://example.com/landing', url: 'bench-beside' }),
    });
    if (created.status !== 201) throw new Error(`creating the link failed: ${created.status}`);
    const redirects = (seconds) =>
      run({
        url: `${api.base}/bench-beside`,
        connections,
        duration: seconds,
        headers: { 'user-agent': BROWSER_UA },
      });
    await redirects(2);
    const alone = summarize(await redirects(duration), '3xx');
    const [beside, writes] = await Promise.all([
      redirects(duration),
      run({
        url: `${api.base}/v1/links`,
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ location_url: 'https://example.com/bench/created' }),
        connections: WRITERS,
        duration,
      }),
    ]);
    return {
      name,
      alone,
      beside: { ...summarize(beside, '3xx'), max: beside.latency.max },
      writes: summarize(writes, '2xx'),
    };
  } finally {
    await api?.stop();
    await cleanUp();
  }
}

/** Prints the case for the build in dist (and `before`, another build's main.js, first). */
async function runWritesBesideCase(options, before = null) {
  const results = [];
  if (before) results.push(await measure('linkdock before', before, options));
  results.push(await measure('linkdock edge', null, options));
  console.log(
    `\n== redirects of one link while POST /v1/links runs beside them (${WRITERS} connections)`,
  );
  for (const { name, alone, beside, writes } of results) {
    console.log(
      `${name.padEnd(16)} redirects alone ${alone.rps} req/s, p99 ${alone.p99} ms;  beside writes ${beside.rps} req/s, ` +
        `p99 ${beside.p99} ms, max ${beside.max} ms;  ${((beside.rps / alone.rps) * 100).toFixed(1)} % of alone;  ` +
        `writes ${writes.rps} req/s, p99 ${writes.p99} ms;  non-redirects ${beside.other}, failed writes ${writes.other}`,
    );
  }
}

module.exports = { runWritesBesideCase };
