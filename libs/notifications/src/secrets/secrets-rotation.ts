import { secretsKeyCheck } from '@app/config';
import { ResealResult, SealedSecret, StoredKeyCheck } from '@app/database';
import { SecretBox } from './secret-box';
import { opens } from './secrets-key-guard';

/** What rotation needs of the database (SealedSecretsRepository). */
export interface ResealStore {
  resealAll(
    reseal: (secret: SealedSecret) => string | null,
    check: StoredKeyCheck,
  ): Promise<ResealResult>;
}

/**
 * `secrets:rotate`: every stored secret sealed again under `to`, and `to`'s check stored, in one
 * transaction. A secret that already opens with `to` is left as it is (a second run, or a
 * database where the key was changed before the check existed); one that opens with neither
 * key makes the whole rotation change nothing.
 */
export function rotateSecretsKey(
  store: ResealStore,
  from: Buffer,
  to: Buffer,
  now: Date,
): Promise<ResealResult> {
  const old = new SecretBox(from);
  const current = new SecretBox(to);
  return store.resealAll(
    (secret) => {
      if (opens(current, secret.sealed)) {
        return secret.sealed;
      }
      try {
        return current.encrypt(old.decrypt(secret.sealed));
      } catch {
        return null;
      }
    },
    { value: secretsKeyCheck(to), datetime: now },
  );
}
