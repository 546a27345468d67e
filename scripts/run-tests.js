#!/usr/bin/env node
// The test part of `npm test` (after the typecheck and the build): the unit tests first, two files
// at a time (UNIT_WORKERS), then the medium, end-to-end and cluster tests one file at a time. Unit tests share nothing
// (no database server, Redis, port or browser), so two at once cost only the CPU they use; the
// other tiers share PostgreSQL, Redis and the machine's timing, and run in turn as before.
//
// Arguments go to both runs (a path filter, `-t`). `--json --outputFile=F` (as .ci/run passes)
// writes one report to F covering both runs. Exits non-zero if either run failed; the second
// runs even when the first failed, so that one run shows every failure.
'use strict';
const { spawnSync } = require('node:child_process');
const { readFileSync, rmSync, writeFileSync } = require('node:fs');

const args = process.argv.slice(2);
const outputAt = args.findIndex((a) => a.startsWith('--outputFile='));
const output = outputAt === -1 ? null : args[outputAt].slice('--outputFile='.length);

const runs = [
  ['--selectProjects', 'unit', `--maxWorkers=${process.env.UNIT_WORKERS ?? '2'}`],
  ['--selectProjects', 'medium-sqlite', 'medium-postgres', 'e2e-sqlite', 'cluster', 'e2e-postgres'],
];

const jest = require.resolve('jest/bin/jest');
let status = 0;
const reports = [];
for (const [i, selection] of runs.entries()) {
  const own =
    output === null
      ? args
      : args.map((a, at) => (at === outputAt ? `--outputFile=${output}.${i}` : a));
  // A path filter that matches no file of this run is not a failure.
  const result = spawnSync(process.execPath, [jest, ...selection, '--passWithNoTests', ...own], {
    stdio: 'inherit',
  });
  if (result.status !== 0) status = result.status ?? 1;
  if (output !== null) {
    try {
      reports.push(JSON.parse(readFileSync(`${output}.${i}`, 'utf8')));
      rmSync(`${output}.${i}`);
    } catch {
      // No report (jest did not start): the status says so.
    }
  }
}

if (output !== null && reports.length > 0) {
  const sum = (key) => reports.reduce((n, r) => n + (r[key] ?? 0), 0);
  const merged = {
    ...reports[reports.length - 1],
    success: reports.every((r) => r.success),
    startTime: Math.min(...reports.map((r) => r.startTime)),
    testResults: reports.flatMap((r) => r.testResults),
  };
  for (const key of Object.keys(merged)) {
    if (/^num[A-Z]/.test(key)) merged[key] = sum(key);
  }
  writeFileSync(output, JSON.stringify(merged));
}
process.exit(status);
