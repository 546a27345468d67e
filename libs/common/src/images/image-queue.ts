import { RetryLaterError } from '../errors/app-error';
import { WorkSlots } from '../work-slots';

/**
 * Runs image work (sharp's metadata, resize and encode each hold a thread of libuv's pool, which
 * file reads share) a bounded number at a time. Callers past that wait their turn; past
 * `maxWaiting` of them the queue is full and a caller gets a 503 with Retry-After at once.
 */
export class ImageQueue {
  private readonly slots: WorkSlots;

  constructor(
    readonly inFlight: number,
    readonly maxWaiting: number,
    private readonly retryAfterSeconds = 5,
  ) {
    this.slots = new WorkSlots(inFlight);
  }

  get size(): { running: number; waiting: number } {
    return this.slots.load;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    const { running, waiting } = this.slots.load;
    if (running >= this.inFlight && waiting >= this.maxWaiting) {
      return Promise.reject(
        new RetryLaterError(
          'server_busy',
          'The server is busy processing images. Try again in a few seconds.',
          this.retryAfterSeconds,
        ),
      );
    }
    return this.slots.run(work);
  }
}
