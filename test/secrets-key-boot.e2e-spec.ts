import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { HandlerSettingsCodec, SecretBox } from '@app/notifications';
import { BUILT, freePort, requireBuilt, startBuilt, stopStarted, waitFor } from '@app/testing';
import { runBuiltCli } from './support/built-cli';

const WEBHOOK = 'https://hooks.example.com/linkdock/boot';
const WEBHOOK_SECRET = 'whsec_boot-0123456789abcdefghij';
const DATE = '\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}';
const WAYS_OUT =
  'Either set SECRETS_KEY back to the old key \\(or remove it to use \\$DATA_DIR/secrets\\.key\\), or re-encrypt with: npm run cli -- secrets:rotate --from-key OLD_KEY\\n$';

/**
 * The built server, worker and command line on a data folder whose secrets key changes (SQLite
 * only: secrets-key.e2e-spec.ts covers the check and the rotation on both databases).
 */
describe('Starting with another secrets key', () => {
  let dataDir: string;
  let port: string;
  let apiKey: string;
  let handlerId: number;
  let oldKey: string;
  const newKey = randomBytes(32).toString('base64');

  beforeAll(async () => {
    requireBuilt(BUILT.api);
    requireBuilt(BUILT.cli);
    dataDir = mkdtempSync(join(tmpdir(), 'linkdock-secrets-'));
    port = String(await freePort());
  });
  afterAll(async () => {
    await stopStarted();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const env = (extra: Record<string, string> = {}) => ({
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ...extra,
  });
  const query = <T>(sql: string): T => {
    const db = new Database(join(dataDir, 'linkdock.sqlite'));
    try {
      return db.prepare(sql).get() as T;
    } finally {
      db.close();
    }
  };
  const sealed = () =>
    query<{ settings_encrypted: string }>('SELECT settings_encrypted FROM notification_handlers')
      .settings_encrypted;

  async function startListening(extra: Record<string, string> = {}) {
    const server = startBuilt(BUILT.api, env(extra));
    await waitFor(() => server.output().includes('Linkdock is listening'), 20000, server.output);
    return server;
  }
  async function stop(server: ReturnType<typeof startBuilt>) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  const getHandler = () =>
    fetch(`http://127.0.0.1:${port}/v1/notification-handlers/${handlerId}`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });

  it('a first start stores the check of the generated key; a handler is created', async () => {
    const server = await startListening();
    apiKey = /\b(ld_[A-Za-z0-9_-]{43})\b/.exec(server.output())![1];
    const res = await fetch(`http://127.0.0.1:${port}/v1/notification-handlers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'Hook',
        type: 'webhook',
        webhook: WEBHOOK,
        webhook_secret: WEBHOOK_SECRET,
      }),
    });
    expect(res.status).toBe(201);
    handlerId = ((await res.json()) as { data: { id: number } }).data.id;
    await stop(server);
    oldKey = readFileSync(join(dataDir, 'secrets.key'), 'utf8').trim();
    expect(query<{ n: number }>('SELECT COUNT(*) AS n FROM secrets_key_check').n).toBe(1);
  });

  it('the server and the worker refuse another SECRETS_KEY with one line, and touch nothing', async () => {
    const before = sealed();
    const refusal = new RegExp(
      `^SECRETS_KEY does not match the key this database's secrets were encrypted with \\(check stored ${DATE} UTC\\)\\. ${WAYS_OUT}`,
    );
    const server = startBuilt(BUILT.api, env({ SECRETS_KEY: newKey }));
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(server.output()).toMatch(refusal);
    const worker = startBuilt(BUILT.worker, env({ SECRETS_KEY: newKey, WORKER: 'external' }));
    expect(await worker.exited).toEqual({ code: 1, signal: null });
    expect(worker.output()).toMatch(refusal);
    expect(sealed()).toBe(before);
  });

  it('secrets:rotate with a wrong --from-key fails, naming the secret, and changes nothing', async () => {
    const before = sealed();
    const checkBefore = query<{ check_value: string }>('SELECT check_value FROM secrets_key_check');
    const wrong = randomBytes(32).toString('hex');
    const run = await runBuiltCli(
      env({ SECRETS_KEY: newKey }),
      'secrets:rotate',
      '--from-key',
      wrong,
    );
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `${JSON.stringify({
        errors: [
          {
            status: 400,
            title: `--from-key does not open 1 stored secret(s), nor does the current key: notification_handlers ${handlerId}. Nothing was changed.`,
            field: 'from-key',
            code: 'validation_failed',
          },
        ],
      })}\n`,
    });
    expect(sealed()).toBe(before);
    expect(query('SELECT check_value FROM secrets_key_check')).toEqual(checkBefore);
  });

  it('secrets:rotate with the old key re-encrypts; the server then starts with the new key', async () => {
    const run = await runBuiltCli(
      env({ SECRETS_KEY: newKey }),
      'secrets:rotate',
      '--from-key',
      oldKey,
    );
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(
      new RegExp(`^\\{"reencrypted":1,"unchanged":0,"check_stored":"${DATE}"\\}\\n$`),
    );
    expect(run.stdout).not.toContain(oldKey);
    expect(run.stdout).not.toContain(newKey);
    expect(
      new HandlerSettingsCodec(new SecretBox(Buffer.from(newKey, 'base64'))).open(sealed()),
    ).toEqual({ webhook: WEBHOOK, webhook_secret: WEBHOOK_SECRET });

    const server = await startListening({ SECRETS_KEY: newKey });
    const res = await getHandler();
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { settings: unknown } }).data.settings).toEqual({
      webhook: 'https://hooks.example.com/****boot',
      webhook_secret: '****ghij',
    });
    await stop(server);
  });

  it('on a database from before the check: a key that opens no secret is refused, the right one stores the check', async () => {
    const db = new Database(join(dataDir, 'linkdock.sqlite'));
    db.prepare('DELETE FROM secrets_key_check').run();
    db.close();
    const wrong = startBuilt(BUILT.api, env({ SECRETS_KEY: oldKey }));
    expect(await wrong.exited).toEqual({ code: 1, signal: null });
    expect(wrong.output()).toMatch(
      new RegExp(
        `^SECRETS_KEY does not match the key this database's secrets were encrypted with \\(none of its 1 stored secrets opens with it\\)\\. ${WAYS_OUT}`,
      ),
    );
    expect(query<{ n: number }>('SELECT COUNT(*) AS n FROM secrets_key_check').n).toBe(0);

    const server = await startListening({ SECRETS_KEY: newKey });
    expect(query<{ n: number }>('SELECT COUNT(*) AS n FROM secrets_key_check').n).toBe(1);
    expect((await getHandler()).status).toBe(200);
    await stop(server);
  });
});
