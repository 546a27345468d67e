import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { LinkEntity } from '../links/link.entity';

/**
 * One counted visit of a link, written in batches by the visit recorder. No IP address is stored:
 * `visitor_hash` is a keyed hash of the day, link, IP and user agent that changes every day.
 */
@Entity('visits')
@Index(['link_id', 'datetime'])
export class VisitEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: Number })
  link_id!: number;

  @ManyToOne(() => LinkEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'link_id' })
  link?: LinkEntity;

  @Column({ type: Date })
  datetime!: Date;

  @Column({ type: String, length: 253, nullable: true })
  referrer_host!: string | null;

  @Column({ type: String, length: 512, nullable: true })
  referrer_path!: string | null;

  @Column({ type: String, length: 128, nullable: true })
  utm_source!: string | null;

  @Column({ type: String, length: 128, nullable: true })
  utm_medium!: string | null;

  @Column({ type: String, length: 128, nullable: true })
  utm_campaign!: string | null;

  @Column({ type: String, length: 2, nullable: true })
  continent_code!: string | null;

  @Column({ type: String, length: 2, nullable: true })
  country_code!: string | null;

  @Column({ type: String, length: 128, nullable: true })
  city_name!: string | null;

  @Column({ type: String, length: 64, nullable: true })
  os_name!: string | null;

  @Column({ type: String, length: 64, nullable: true })
  browser_name!: string | null;

  @Column({ type: String, length: 16, nullable: true })
  device_type!: string | null;

  @Column({ type: String, length: 16, nullable: true })
  browser_language!: string | null;

  @Column({ type: Boolean })
  is_unique!: boolean;

  @Column({ type: String, length: 32 })
  visitor_hash!: string;

  /**
   * The bot family (`curl`, `Slackbot`, `HEAD`, ..., `other`) of a bot's visit, null for a
   * visitor's. A bot's visit counts in no pageviews, visitors, clicks or breakdown but `bots`.
   */
  @Column({ type: String, length: 32, nullable: true })
  bot!: string | null;

  /**
   * The QR code a visit came through (its scan marker named a code of the link's owner that
   * encodes this link), null otherwise. No foreign key: a deleted code's scans stay counted.
   */
  @Column({ type: Number, nullable: true })
  qr_code_id!: number | null;
}
