import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_SECRET_FILE, resolveAppSecret } from './app-secret';

describe(resolveAppSecret.name, () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'linkdock-secret-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('uses APP_SECRET when it is set, without touching DATA_DIR', () => {
    const secret = resolveAppSecret({ appSecret: 's'.repeat(32), dataDir: join(dir, 'none') });
    expect(secret.toString('utf8')).toBe('s'.repeat(32));
    expect(() => statSync(join(dir, 'none'))).toThrow();
  });

  it('generates a 32-byte key once into DATA_DIR, readable by the owner only, and reuses it', () => {
    const first = resolveAppSecret({ appSecret: null, dataDir: dir });
    const second = resolveAppSecret({ appSecret: null, dataDir: dir });
    expect(first).toHaveLength(32);
    expect(second.equals(first)).toBe(true);
    const file = join(dir, APP_SECRET_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8'), 'base64url').equals(first)).toBe(true);
  });
});
