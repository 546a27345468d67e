import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * The compiled entry of a worker thread, `name`.js beside the calling file (`dir`, its
 * `__dirname`, in a library's `src`). Under ts-jest the sources run as TypeScript, which a thread
 * cannot load: the thread then runs the build in `dist/` (`npm test` builds first). null when
 * there is neither.
 */
export function builtThreadScript(dir: string, name: string): string | null {
  const beside = join(dir, `${name}.js`);
  if (existsSync(beside)) return beside;
  const root = resolve(dir, '../../..');
  const built = join(root, 'dist', relative(root, dir), `${name}.js`);
  return existsSync(built) ? built : null;
}
