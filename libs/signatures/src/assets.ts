import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The repository's `assets/` folder (social icons), found from this file both in the sources and
 * in `dist/`, so `npm start`, the tests and the Docker image (which copies it) all serve it.
 */
export function findAssetsDir(from: string = __dirname): string {
  let dir = from;
  for (;;) {
    const candidate = join(dir, 'assets', 'social');
    if (existsSync(candidate)) {
      return join(dir, 'assets');
    }
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(`No assets/social folder above ${from}`);
    }
    dir = parent;
  }
}
