import { Injectable } from '@nestjs/common';
import { Db } from '../engine/db';
import { SecretsKeyCheckEntity } from './secrets-key-check.entity';

/**
 * Every column that holds values sealed with the secrets key (AES-256-GCM, `SecretBox` in
 * libs/notifications). The key check and `secrets:rotate` go through this list: a new kind of
 * stored secret is one line here.
 */
export const SEALED_COLUMNS = [
  { table: 'notification_handlers', column: 'settings_encrypted' },
] as const;

export interface SealedSecret {
  table: string;
  id: number;
  sealed: string;
}

export interface StoredKeyCheck {
  value: string;
  datetime: Date;
}

/** What `resealAll` did; when `unreadable` is not empty, it changed nothing. */
export interface ResealResult {
  resealed: number;
  unchanged: number;
  unreadable: { table: string; id: number }[];
}

const CHECK_ID = 1;
const BATCH = 500;

class Unreadable extends Error {}

/** The sealed secrets of every table, and the stored check of the key that sealed them. */
@Injectable()
export class SealedSecretsRepository {
  constructor(private readonly db: Db) {}

  /** The stored check (in the open write, when there is one). */
  async readCheck(): Promise<StoredKeyCheck | null> {
    const row = await this.db.repository(SecretsKeyCheckEntity).findOneBy({ id: CHECK_ID });
    return row ? { value: row.check_value, datetime: row.datetime } : null;
  }

  /**
   * Stores the check unless one is stored already (another instance starting at the same time may
   * have been first) and returns the one stored.
   */
  async storeCheck(value: string, at: Date): Promise<StoredKeyCheck> {
    await this.db.write(() =>
      this.db.manager
        .createQueryBuilder()
        .insert()
        .into(SecretsKeyCheckEntity)
        .values({ id: CHECK_ID, check_value: value, datetime: at })
        .orIgnore()
        .execute(),
    );
    const stored = await this.readCheck();
    if (!stored) {
      throw new Error('The secrets key check was not stored');
    }
    return stored;
  }

  /** Every sealed secret, a batch at a time: table by table, in id order (in the open write). */
  async *all(): AsyncGenerator<SealedSecret> {
    for (const { table, column } of SEALED_COLUMNS) {
      let after = 0;
      for (;;) {
        const rows = await this.db.manager
          .createQueryBuilder()
          .select('t.id', 'id')
          .addSelect(`t.${column}`, 'sealed')
          .from(table, 't')
          .where('t.id > :after', { after })
          .orderBy('t.id', 'ASC')
          .limit(BATCH)
          .getRawMany<{ id: number | string; sealed: string }>();
        for (const row of rows) {
          yield { table, id: Number(row.id), sealed: row.sealed };
        }
        if (rows.length < BATCH) break;
        after = Number(rows[rows.length - 1].id);
      }
    }
  }

  /**
   * In one transaction: every sealed secret replaced by `reseal(secret)` (the same string: left
   * as it is; null: it cannot be opened) and the key check replaced by `check`. When any secret
   * cannot be opened, the transaction is rolled back and they are returned.
   */
  async resealAll(
    reseal: (secret: SealedSecret) => string | null,
    check: StoredKeyCheck,
  ): Promise<ResealResult> {
    const result: ResealResult = { resealed: 0, unchanged: 0, unreadable: [] };
    try {
      await this.db.write(async () => {
        const em = this.db.manager;
        // Written first: on SQLite this takes the write lock before anything is read.
        await em
          .createQueryBuilder()
          .insert()
          .into(SecretsKeyCheckEntity)
          .values({ id: CHECK_ID, check_value: check.value, datetime: check.datetime })
          .orUpdate(['check_value', 'datetime'], ['id'])
          .execute();
        if (this.db.concurrentWrites) {
          // Readers go on; a server still running with the old key cannot write meanwhile.
          for (const { table } of SEALED_COLUMNS) {
            await em.query(`LOCK TABLE "${table}" IN EXCLUSIVE MODE`);
          }
        }
        for await (const secret of this.all()) {
          const next = reseal(secret);
          if (next === null) {
            result.unreadable.push({ table: secret.table, id: secret.id });
          } else if (next === secret.sealed) {
            result.unchanged += 1;
          } else if (result.unreadable.length === 0) {
            await this.write(secret, next);
            result.resealed += 1;
          }
        }
        if (result.unreadable.length > 0) {
          throw new Unreadable();
        }
      });
    } catch (error) {
      if (!(error instanceof Unreadable)) throw error;
      return { resealed: 0, unchanged: 0, unreadable: result.unreadable };
    }
    return result;
  }

  private async write(secret: SealedSecret, sealed: string): Promise<void> {
    const { column } = SEALED_COLUMNS.find((c) => c.table === secret.table)!;
    await this.db.manager
      .createQueryBuilder()
      .update(secret.table)
      .set({ [column]: sealed })
      .where('id = :id', { id: secret.id })
      .execute();
  }
}
