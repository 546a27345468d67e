import { randomBytes } from 'node:crypto';
import { secretsKeyCheck } from '@app/config';
import type { SealedSecret, StoredKeyCheck } from '@app/database';
import { SecretBox } from './secret-box';
import { checkSecretsKey, KeyCheckStore, mismatchLine } from './secrets-key-guard';

/** The check row and the sealed secrets, in memory; `stored` records each storeCheck call. */
class FakeStore implements KeyCheckStore {
  stored: StoredKeyCheck[] = [];
  read = 0;
  constructor(
    public check: StoredKeyCheck | null,
    private readonly secrets: SealedSecret[] = [],
    /** What another instance stores first, between our read and our write. */
    private readonly racer: StoredKeyCheck | null = null,
  ) {}

  readCheck(): Promise<StoredKeyCheck | null> {
    return Promise.resolve(this.check);
  }

  storeCheck(value: string, at: Date): Promise<StoredKeyCheck> {
    this.stored.push({ value, datetime: at });
    this.check ??= this.racer ?? { value, datetime: at };
    return Promise.resolve(this.check);
  }

  async *all(): AsyncGenerator<SealedSecret> {
    for (const secret of this.secrets) {
      this.read += 1;
      yield await Promise.resolve(secret);
    }
  }
}

describe(checkSecretsKey.name, () => {
  const key = randomBytes(32);
  const other = randomBytes(32);
  const now = new Date('2026-11-27T16:00:00Z');
  const earlier = new Date('2026-01-02T03:04:05Z');
  const sealed = (k: Buffer, id: number): SealedSecret => ({
    table: 'notification_handlers',
    id,
    sealed: new SecretBox(k).encrypt(`{"webhook_secret":"s${id}"}`),
  });

  it('accepts the key whose check is stored, and stores nothing', async () => {
    const store = new FakeStore({ value: secretsKeyCheck(key), datetime: earlier });
    expect(await checkSecretsKey(store, key, now)).toEqual({ matches: true, stored: false });
    expect(store.stored).toEqual([]);
  });

  it('refuses another key, with the date of the stored check, without reading any secret', async () => {
    const store = new FakeStore({ value: secretsKeyCheck(key), datetime: earlier }, [
      sealed(other, 1),
    ]);
    expect(await checkSecretsKey(store, other, now)).toEqual({
      matches: false,
      checkedAt: earlier,
      tried: 0,
    });
    expect([store.stored, store.read]).toEqual([[], 0]);
  });

  it('stores the check on a database with no secrets yet', async () => {
    const store = new FakeStore(null);
    expect(await checkSecretsKey(store, key, now)).toEqual({ matches: true, stored: true });
    expect(store.stored).toEqual([{ value: secretsKeyCheck(key), datetime: now }]);
  });

  it('on an upgrade stores the check once a stored secret opens, even after one that does not', async () => {
    const store = new FakeStore(null, [sealed(other, 1), sealed(key, 2), sealed(key, 3)]);
    expect(await checkSecretsKey(store, key, now)).toEqual({ matches: true, stored: true });
    expect(store.stored).toEqual([{ value: secretsKeyCheck(key), datetime: now }]);
    expect(store.read).toBe(2);
  });

  it('on an upgrade refuses a key that opens none of the stored secrets, and stores nothing', async () => {
    const store = new FakeStore(null, [sealed(other, 1), sealed(other, 2)]);
    expect(await checkSecretsKey(store, key, now)).toEqual({
      matches: false,
      checkedAt: null,
      tried: 2,
    });
    expect(store.stored).toEqual([]);
  });

  it('refuses when another instance stored the check of another key first', async () => {
    const racer = { value: secretsKeyCheck(other), datetime: earlier };
    const store = new FakeStore(null, [], racer);
    expect(await checkSecretsKey(store, key, now)).toEqual({
      matches: false,
      checkedAt: earlier,
      tried: 0,
    });
  });
});

describe(mismatchLine.name, () => {
  const checkedAt = new Date('2026-11-20T08:30:00Z');

  it('names SECRETS_KEY, the date of the check, and both ways out', () => {
    expect(mismatchLine({ matches: false, checkedAt, tried: 0 }, null, false)).toBe(
      "SECRETS_KEY does not match the key this database's secrets were encrypted with (check stored 2026-11-20 08:30:00 UTC). Either set SECRETS_KEY back to the old key (or remove it to use $DATA_DIR/secrets.key), or re-encrypt with: npm run cli -- secrets:rotate --from-key OLD_KEY",
    );
  });

  it('on PostgreSQL does not suggest the key file, which PostgreSQL does not use', () => {
    expect(mismatchLine({ matches: false, checkedAt: null, tried: 3 }, null, true)).toBe(
      "SECRETS_KEY does not match the key this database's secrets were encrypted with (none of its 3 stored secrets opens with it). Either set SECRETS_KEY back to the old key, or re-encrypt with: npm run cli -- secrets:rotate --from-key OLD_KEY",
    );
  });

  it('names the key file when the key came from it', () => {
    expect(mismatchLine({ matches: false, checkedAt, tried: 0 }, '/data/secrets.key', false)).toBe(
      "The secrets key in /data/secrets.key does not match the key this database's secrets were encrypted with (check stored 2026-11-20 08:30:00 UTC). Either put the old key back into /data/secrets.key (or set SECRETS_KEY to it), or re-encrypt with: npm run cli -- secrets:rotate --from-key OLD_KEY",
    );
  });
});
