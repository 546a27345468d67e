import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

/** Where splash page images are stored under DATA_DIR and served under APP_URL. */
export const SPLASH_UPLOADS_PATH = 'uploads/splash-pages';

/** The accent colour of a splash page (its continue button) unless its owner picks another. */
export const SPLASH_DEFAULT_COLOR = '#2f5bea';

/** What a splash page shows besides its title and description (JSON in `splash_pages.settings`). */
export interface SplashPageSettings {
  secondary_button_name: string | null;
  secondary_button_url: string | null;
  custom_css: string | null;
  custom_js: string | null;
  ads_header: string | null;
  ads_footer: string | null;
}

/** An interstitial page shown to visitors of the links that reference it, before the destination. */
@Entity('splash_pages')
export class SplashPageEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: Number })
  user_id!: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ type: String, length: 64 })
  name!: string;

  /** `#rrggbb`, lowercase. */
  @Column({ type: String, length: 7, default: SPLASH_DEFAULT_COLOR })
  color!: string;

  @Column({ type: String, length: 256, nullable: true })
  title!: string | null;

  @Column({ type: String, length: 2048, nullable: true })
  description!: string | null;

  @Column({ type: Number, default: 5 })
  link_unlock_seconds!: number;

  @Column({ type: Boolean, default: false })
  auto_redirect!: boolean;

  @Column({ type: 'simple-json' })
  settings!: SplashPageSettings;

  /** File names under uploads/splash-pages/ (PNG). */
  @Column({ type: String, length: 128, nullable: true })
  logo!: string | null;

  @Column({ type: String, length: 128, nullable: true })
  favicon!: string | null;

  @Column({ type: String, length: 128, nullable: true })
  opengraph!: string | null;

  @Column({ type: Date })
  datetime!: Date;

  @Column({ type: Date, nullable: true })
  last_datetime!: Date | null;
}
