import { RetryLaterError } from '../errors/app-error';

/**
 * Runs image work (sharp's metadata, resize and encode each hold a thread of libuv's pool, which
 * file reads share) a bounded number at a time. Callers past that wait their turn; past
 * `maxWaiting` of them the queue is full and a caller gets a 503 with Retry-After at once.
 */
export class ImageQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly inFlight: number,
    readonly maxWaiting: number,
    private readonly retryAfterSeconds = 5,
  ) {}

  get size(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.inFlight) {
      if (this.waiting.length >= this.maxWaiting) {
        throw new RetryLaterError(
          'server_busy',
          'The server is busy processing images. Try again in a few seconds.',
          this.retryAfterSeconds,
        );
      }
      // The finishing task hands its slot over, so `running` never drops in between.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) {
        next();
      } else {
        this.running -= 1;
      }
    }
  }
}
