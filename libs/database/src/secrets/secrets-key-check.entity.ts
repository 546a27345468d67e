import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row (id 1): the check value of the secrets key this database's secrets are sealed with
 * (`secretsKeyCheck` in libs/config), so that a start with another key is refused instead of
 * leaving every stored secret unreadable.
 */
@Entity('secrets_key_check')
export class SecretsKeyCheckEntity {
  @PrimaryColumn({ type: Number })
  id!: number;

  /** HMAC-SHA256, hex. */
  @Column({ type: String, length: 64 })
  check_value!: string;

  /** When this value was stored (first start, upgrade, or `secrets:rotate`). */
  @Column({ type: Date })
  datetime!: Date;
}
