import 'reflect-metadata';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadConfig } from '@app/config';
import { createApp } from './configure-app';
import { buildOpenApiDocument } from './openapi';

/** The committed copy of the OpenAPI document; a test fails when it differs from the code. */
export const OPENAPI_FILE = join(projectRoot(__dirname), 'docs', 'openapi.json');

/** The folder holding package.json, from source (apps/api/src) or build output (dist/apps/api/src). */
function projectRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json')) || dir.endsWith('dist')) {
    const parent = dirname(dir);
    if (parent === dir) {
      return process.cwd();
    }
    dir = parent;
  }
  return dir;
}

export function serializeOpenApi(document: object): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

async function main(): Promise<void> {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
  const app = await createApp(config);
  await app.init();
  const target = process.argv[2] ?? OPENAPI_FILE;
  writeFileSync(target, serializeOpenApi(buildOpenApiDocument(app)));
  await app.close();
  process.stdout.write(`${JSON.stringify({ written: target })}\n`);
}

if (require.main === module) {
  void main();
}
