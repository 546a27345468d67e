#!/usr/bin/env node
// Part of `npm run lint`: every repository path docs/architecture.md names in backticks must
// exist, so the page cannot drift from the tree unnoticed. `{a,b}` in a path names both; a path
// with a placeholder (`<resource>`) or a wildcard (`apps/*`) is an example, not checked.
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const page = 'docs/architecture.md';
const text = readFileSync(join(root, page), 'utf8');
const TOP = /^(apps|libs|test|bench|scripts|docs)\//;

function expand(path) {
  const brace = /\{([^}]*)\}/.exec(path);
  if (!brace) return [path];
  return brace[1]
    .split(',')
    .flatMap((part) =>
      expand(path.slice(0, brace.index) + part + path.slice(brace.index + brace[0].length)),
    );
}

const named = [...text.matchAll(/`([^`\s]+)`/g)]
  .map((m) => m[1])
  .filter((p) => TOP.test(p) && !/[<*]/.test(p));
const missing = [...new Set(named.flatMap(expand))].filter((p) => !existsSync(join(root, p)));
if (named.length === 0) {
  console.error(`${page}: names no paths; is the check reading the right file?`);
  process.exit(1);
}
if (missing.length > 0) {
  console.error(`${page} names paths that do not exist (update the page or the tree):`);
  for (const path of missing) console.error(`  ${path}`);
  process.exit(1);
}
console.log(`${page}: all ${new Set(named).size} paths it names exist.`);
