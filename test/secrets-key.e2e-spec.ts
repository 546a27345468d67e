import { randomBytes } from 'node:crypto';
import { resolveSecretsKey, SecretsKeyMismatchError, secretsKeyCheck } from '@app/config';
import { HandlerSettingsCodec, SecretBox, verifySecretsKey } from '@app/notifications';
import { createTestApp, TestApp } from '@app/testing';
import { runCommand } from './support/cli';

const WEBHOOK = 'https://hooks.example.com/linkdock/rotate';
const WEBHOOK_SECRET = 'whsec_rotate-me-0123456789abcdef';

/**
 * The secrets key check and `secrets:rotate`, on each database (the built server's refusal is
 * in secrets-key-boot.e2e-spec.ts). createTestApp does not verify the key, so the database
 * starts as an upgraded one would: a handler's secrets and no check row.
 */
describe('Secrets key check and rotation', () => {
  let t: TestApp;
  let oldKey: Buffer;
  let file: string | null;
  let handlerId: number;
  const newKey = randomBytes(32);
  const wrongKey = randomBytes(32);

  beforeAll(async () => {
    t = await createTestApp();
    ({ key: oldKey, file } = resolveSecretsKey(t.config));
    const user = await t.createUser();
    const res = await t.http
      .post('/v1/notification-handlers')
      .set('Authorization', user.auth)
      .send({ name: 'Hook', type: 'webhook', webhook: WEBHOOK, webhook_secret: WEBHOOK_SECRET });
    expect(res.status).toBe(201);
    handlerId = res.body.data.id;
  });
  afterAll(() => t?.close());

  const p = (n: number) => (t.dataSource.options.type === 'postgres' ? `$${n}` : '?');
  const sealedRow = async (): Promise<string> =>
    (
      await t.dataSource.query(
        `SELECT settings_encrypted FROM notification_handlers WHERE id = ${p(1)}`,
        [handlerId],
      )
    )[0].settings_encrypted;
  const checkRows = (): Promise<{ check_value: string }[]> =>
    t.dataSource.query('SELECT check_value FROM secrets_key_check');
  /** The CLI as it runs with SECRETS_KEY set to `key`. */
  const cliWithKey = (key: Buffer, ...argv: string[]) =>
    runCommand(
      { ...t.config, notifications: { ...t.config.notifications, secretsKey: key } },
      ...argv,
    );
  const printsNoKey = (lines: string[]) => {
    const all = lines.join('\n');
    for (const key of [oldKey, newKey, wrongKey]) {
      expect(all).not.toContain(key.toString('base64'));
      expect(all).not.toContain(key.toString('hex'));
    }
  };

  it('on an upgraded database refuses a key that opens none of the secrets, and stores no check', async () => {
    await expect(verifySecretsKey(t.dataSource, { key: wrongKey, file: null })).rejects.toThrow(
      new SecretsKeyMismatchError(
        `SECRETS_KEY does not match the key this database's secrets were encrypted with (none of its 1 stored secrets opens with it). Either set SECRETS_KEY back to the old key${t.dataSource.options.type === 'postgres' ? '' : ' (or remove it to use $DATA_DIR/secrets.key)'}, or re-encrypt with: npm run cli -- secrets:rotate --from-key OLD_KEY`,
      ),
    );
    expect(await checkRows()).toEqual([]);
  });

  it('on an upgraded database stores the check of the key that opens the secrets', async () => {
    expect(await verifySecretsKey(t.dataSource, { key: oldKey, file })).toEqual({
      matches: true,
      stored: true,
    });
    expect(await checkRows()).toEqual([{ check_value: secretsKeyCheck(oldKey) }]);
    // The next start compares with the check only.
    expect(await verifySecretsKey(t.dataSource, { key: oldKey, file })).toEqual({
      matches: true,
      stored: false,
    });
  });

  it('refuses another key once the check is stored, naming the date of the check', async () => {
    await expect(verifySecretsKey(t.dataSource, { key: newKey, file: null })).rejects.toThrow(
      /^SECRETS_KEY does not match the key this database's secrets were encrypted with \(check stored \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\)\. Either set SECRETS_KEY back to the old key/,
    );
  });

  it('secrets:rotate with a --from-key that opens nothing says which secret and changes nothing', async () => {
    const before = await sealedRow();
    const res = await cliWithKey(newKey, 'secrets:rotate', '--from-key', wrongKey.toString('hex'));
    expect(res.code).toBe(1);
    expect(res.out).toEqual([]);
    expect(res.err).toEqual([
      JSON.stringify({
        errors: [
          {
            status: 400,
            title: `--from-key does not open 1 stored secret(s), nor does the current key: notification_handlers ${handlerId}. Nothing was changed.`,
            field: 'from-key',
            code: 'validation_failed',
          },
        ],
      }),
    ]);
    printsNoKey([...res.out, ...res.err]);
    expect(await sealedRow()).toBe(before);
    expect(await checkRows()).toEqual([{ check_value: secretsKeyCheck(oldKey) }]);
  });

  it('secrets:rotate refuses a --from-key that is not a key, without echoing it', async () => {
    const res = await cliWithKey(newKey, 'secrets:rotate', '--from-key', 'not-a-key-at-all');
    expect([res.code, res.out]).toEqual([1, []]);
    expect(JSON.parse(res.error!)).toEqual({
      errors: [
        {
          status: 400,
          title:
            '--from-key must be 32 bytes as 64 hex digits or base64, as SECRETS_KEY or the secrets.key file holds it.',
          field: 'from-key',
          code: 'validation_failed',
        },
      ],
    });
    expect(res.error).not.toContain('not-a-key-at-all');
  });

  it('secrets:rotate re-encrypts every secret under the current key and stores its check', async () => {
    const res = await cliWithKey(newKey, 'secrets:rotate', '--from-key', oldKey.toString('base64'));
    expect([res.code, res.err, res.out]).toEqual([0, [], [expect.any(String)]]);
    expect(res.result).toEqual({
      reencrypted: 1,
      unchanged: 0,
      check_stored: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    printsNoKey(res.out);
    expect(new HandlerSettingsCodec(new SecretBox(newKey)).open(await sealedRow())).toEqual({
      webhook: WEBHOOK,
      webhook_secret: WEBHOOK_SECRET,
    });
    expect(await checkRows()).toEqual([{ check_value: secretsKeyCheck(newKey) }]);
    expect(await verifySecretsKey(t.dataSource, { key: newKey, file: null })).toEqual({
      matches: true,
      stored: false,
    });
    await expect(verifySecretsKey(t.dataSource, { key: oldKey, file })).rejects.toThrow(
      SecretsKeyMismatchError,
    );
  });

  it('secrets:rotate run again leaves the secrets already under the current key as they are', async () => {
    const before = await sealedRow();
    const res = await cliWithKey(newKey, 'secrets:rotate', '--from-key', oldKey.toString('base64'));
    expect(res.code).toBe(0);
    expect(res.result).toMatchObject({ reencrypted: 0, unchanged: 1 });
    expect(await sealedRow()).toBe(before);
  });
});
