import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * The compiled entry of a worker thread, `name`.js beside the calling file (`dir`, its
 * `__dirname`, somewhere under a library's `src`). Under ts-jest the sources run as TypeScript, which a thread
 * cannot load: the thread then runs the build in `dist/` (`npm test` builds first). null when
 * there is neither.
 */
export function builtThreadScript(dir: string, name: string): string | null {
  const beside = join(dir, `${name}.js`);
  if (existsSync(beside)) return beside;
  const root = projectRoot(dir);
  if (root === null) return null;
  const built = join(root, 'dist', relative(root, dir), `${name}.js`);
  return existsSync(built) ? built : null;
}

/** The nearest folder above `dir` that holds `nest-cli.json` (the repository's root), or null. */
function projectRoot(dir: string): string | null {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'nest-cli.json'))) return at;
    if (dirname(at) === at) return null;
  }
}
