#!/usr/bin/env node
// Part of `npm run lint`: no import cycle among the TypeScript files of apps/ and libs/, type-only
// imports included. ESLint's import-x/no-cycle names the file of a value cycle in the editor, but
// skips `import type`; this reads every import (TypeScript's own pre-processor and resolver, with
// tsconfig.json's @app/* paths) and prints each cycle it finds.
'use strict';
const { readdirSync, readFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const ts = require('typescript');

const root = join(__dirname, '..');
const { config } = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path);
    return /\.ts$/.test(entry.name) && !/\.(spec|d)\.ts$/.test(entry.name) ? [path] : [];
  });
}

const files = ['apps', 'libs'].flatMap((top) => sources(join(root, top)));
const known = new Set(files);
const edges = new Map();
for (const file of files) {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const targets = new Set();
  for (const { fileName } of importedFiles) {
    const resolved = ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule;
    if (resolved && known.has(resolved.resolvedFileName)) targets.add(resolved.resolvedFileName);
  }
  edges.set(file, [...targets]);
}

// Tarjan's strongly connected components: a component of more than one file is a cycle.
let index = 0;
const indexes = new Map();
const lows = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
function visit(file) {
  indexes.set(file, index);
  lows.set(file, index++);
  stack.push(file);
  onStack.add(file);
  for (const next of edges.get(file)) {
    if (!indexes.has(next)) {
      visit(next);
      lows.set(file, Math.min(lows.get(file), lows.get(next)));
    } else if (onStack.has(next)) {
      lows.set(file, Math.min(lows.get(file), indexes.get(next)));
    }
  }
  if (lows.get(file) === indexes.get(file)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || edges.get(file).includes(file)) cycles.push(component);
  }
}
for (const file of files) if (!indexes.has(file)) visit(file);

if (cycles.length > 0) {
  console.error(
    'Import cycles (each line a set of files that import one another, types included):',
  );
  for (const cycle of cycles) {
    console.error(
      `  ${cycle
        .map((file) => relative(root, file))
        .sort()
        .join(' <-> ')}`,
    );
  }
  process.exit(1);
}
console.log(`No import cycle among the ${files.length} files of apps/ and libs/.`);
