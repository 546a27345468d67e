import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { ApiKeysRepository } from '@app/database';

/** How long uses of keys wait before they are written together. */
export const KEY_USAGE_FLUSH_MS = 2_000;

/**
 * last_used_datetime of keys answered from the AuthCache, written off the request path: uses are
 * collected (the latest per key) and written every KEY_USAGE_FLUSH_MS, and on shutdown.
 */
@Injectable()
export class KeyUsage implements BeforeApplicationShutdown {
  private readonly logger = new Logger(KeyUsage.name);
  private pending = new Map<number, Date>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly keys: ApiKeysRepository) {}

  /** Remembers that the key was used at `at`; written within KEY_USAGE_FLUSH_MS. */
  record(keyId: number, at: Date): void {
    this.pending.set(keyId, at);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), KEY_USAGE_FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Writes what was recorded; resolves once it is written (or its failure logged). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.flushing.then(async () => {
      for (const [id, at] of batch) {
        try {
          await this.keys.touch(id, at);
        } catch (error) {
          this.logger.warn(`Cannot record the use of API key ${id}: ${String(error)}`);
        }
      }
    });
    return this.flushing;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }
}
