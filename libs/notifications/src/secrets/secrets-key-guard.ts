import { timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { formatDateTime } from '@app/common';
import { ResolvedSecretsKey, SecretsKeyMismatchError, secretsKeyCheck } from '@app/config';
import { Db, SealedSecret, SealedSecretsRepository, StoredKeyCheck } from '@app/database';
import { SecretBox } from './secret-box';

/** What the key check needs of the database (SealedSecretsRepository). */
export interface KeyCheckStore {
  readCheck(): Promise<StoredKeyCheck | null>;
  storeCheck(value: string, at: Date): Promise<StoredKeyCheck>;
  all(): AsyncIterable<SealedSecret>;
}

export type KeyCheckOutcome =
  /** `stored`: there was no check before; this key's is stored now. */
  | { matches: true; stored: boolean }
  /** `checkedAt`: when the check was stored; null when none was and no stored secret opens. */
  | { matches: false; checkedAt: Date | null; tried: number };

/**
 * Does `key` open this database's secrets? With a stored check, compare. Without one (a new
 * database, or one from before the check), any stored secret that opens proves the key (AES-GCM
 * authenticates), and so does having none; then the check is stored.
 */
export async function checkSecretsKey(
  store: KeyCheckStore,
  key: Buffer,
  now: Date,
): Promise<KeyCheckOutcome> {
  const expected = secretsKeyCheck(key);
  const stored = await store.readCheck();
  if (stored) {
    return sameCheck(stored.value, expected)
      ? { matches: true, stored: false }
      : { matches: false, checkedAt: stored.datetime, tried: 0 };
  }
  const box = new SecretBox(key);
  let tried = 0;
  let opened = false;
  for await (const secret of store.all()) {
    tried += 1;
    if (opens(box, secret.sealed)) {
      opened = true;
      break;
    }
  }
  if (tried > 0 && !opened) {
    return { matches: false, checkedAt: null, tried };
  }
  const written = await store.storeCheck(expected, now);
  // Another instance starting at the same moment with another key may have stored its own.
  return sameCheck(written.value, expected)
    ? { matches: true, stored: true }
    : { matches: false, checkedAt: written.datetime, tried };
}

/**
 * At start (API, worker): stores the key's check or refuses a key that does not match the one
 * the database's secrets were sealed with, with one line that says what to do.
 */
export async function verifySecretsKey(
  dataSource: DataSource,
  secrets: Pick<ResolvedSecretsKey, 'key' | 'file'>,
  now = new Date(),
): Promise<KeyCheckOutcome> {
  const outcome = await checkSecretsKey(
    new SealedSecretsRepository(new Db(dataSource)),
    secrets.key,
    now,
  );
  if (!outcome.matches) {
    throw new SecretsKeyMismatchError(
      mismatchLine(outcome, secrets.file, dataSource.options.type === 'postgres'),
    );
  }
  return outcome;
}

export function mismatchLine(
  outcome: Extract<KeyCheckOutcome, { matches: false }>,
  file: string | null,
  postgres: boolean,
): string {
  const which = file === null ? 'SECRETS_KEY' : `The secrets key in ${file}`;
  const why =
    outcome.checkedAt !== null
      ? `check stored ${formatDateTime(outcome.checkedAt)} UTC`
      : `none of its ${outcome.tried} stored secrets opens with it`;
  const back =
    file === null
      ? `set SECRETS_KEY back to the old key${postgres ? '' : ' (or remove it to use $DATA_DIR/secrets.key)'}`
      : `put the old key back into ${file} (or set SECRETS_KEY to it)`;
  return (
    `${which} does not match the key this database's secrets were encrypted with (${why}). ` +
    `Either ${back}, or re-encrypt with: npm run cli -- secrets:rotate --from-key OLD_KEY`
  );
}

export function opens(box: SecretBox, sealed: string): boolean {
  try {
    box.decrypt(sealed);
    return true;
  } catch {
    return false;
  }
}

function sameCheck(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
