import { randomBytes } from 'node:crypto';
import { secretsKeyCheck } from '@app/config';
import type { ResealResult, SealedSecret, StoredKeyCheck } from '@app/database';
import { SecretBox } from './secret-box';
import { ResealStore, rotateSecretsKey } from './secrets-rotation';

/** resealAll as the repository does it, on rows in memory: all or nothing. */
class FakeStore implements ResealStore {
  check: StoredKeyCheck | null = null;
  constructor(public rows: SealedSecret[]) {}

  resealAll(
    reseal: (secret: SealedSecret) => string | null,
    check: StoredKeyCheck,
  ): Promise<ResealResult> {
    const next = this.rows.map((row) => ({ row, sealed: reseal(row) }));
    const unreadable = next.filter((n) => n.sealed === null).map((n) => n.row);
    if (unreadable.length > 0) {
      return Promise.resolve({
        resealed: 0,
        unchanged: 0,
        unreadable: unreadable.map(({ table, id }) => ({ table, id })),
      });
    }
    const unchanged = next.filter((n) => n.sealed === n.row.sealed).length;
    this.rows = next.map((n) => ({ ...n.row, sealed: n.sealed! }));
    this.check = check;
    return Promise.resolve({ resealed: next.length - unchanged, unchanged, unreadable: [] });
  }
}

describe(rotateSecretsKey.name, () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const now = new Date('2026-11-27T16:00:00Z');
  const row = (key: Buffer, id: number, plain: string): SealedSecret => ({
    table: 'notification_handlers',
    id,
    sealed: new SecretBox(key).encrypt(plain),
  });

  it('seals every secret again under the new key and stores its check', async () => {
    const store = new FakeStore([row(oldKey, 1, '{"a":"1"}'), row(oldKey, 2, '{"b":"2"}')]);
    expect(await rotateSecretsKey(store, oldKey, newKey, now)).toEqual({
      resealed: 2,
      unchanged: 0,
      unreadable: [],
    });
    const box = new SecretBox(newKey);
    expect(store.rows.map((r) => box.decrypt(r.sealed))).toEqual(['{"a":"1"}', '{"b":"2"}']);
    expect(store.check).toEqual({ value: secretsKeyCheck(newKey), datetime: now });
  });

  it('leaves secrets that already open with the new key as they are', async () => {
    const current = row(newKey, 2, '{"b":"2"}');
    const store = new FakeStore([row(oldKey, 1, '{"a":"1"}'), current]);
    expect(await rotateSecretsKey(store, oldKey, newKey, now)).toEqual({
      resealed: 1,
      unchanged: 1,
      unreadable: [],
    });
    expect(store.rows[1]).toEqual(current);
  });

  it('names the secrets neither key opens and changes nothing', async () => {
    const rows = [row(oldKey, 1, '{}'), row(randomBytes(32), 7, '{}')];
    const store = new FakeStore([...rows]);
    expect(await rotateSecretsKey(store, oldKey, newKey, now)).toEqual({
      resealed: 0,
      unchanged: 0,
      unreadable: [{ table: 'notification_handlers', id: 7 }],
    });
    expect(store.rows).toEqual(rows);
    expect(store.check).toBeNull();
  });
});
