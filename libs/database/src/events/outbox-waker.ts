import { Injectable } from '@nestjs/common';

/**
 * This process's signal that outbox events were written (or a delivery made due): the dispatcher
 * of this process listens, so that a new event is attempted at once rather than on the next poll.
 * A wake may come a moment before the writing transaction commits; the dispatcher looks again
 * shortly after one. One instance per app (DatabaseModule provides it); dispatchers in other
 * processes are woken by PostgreSQL's NOTIFY instead (`Outbox.wake`).
 */
@Injectable()
export class OutboxWaker {
  private readonly listeners = new Set<() => void>();

  /** Calls every listener on the next turn of the event loop (outside the caller's write). */
  wake(): void {
    if (this.listeners.size === 0) return;
    setImmediate(() => {
      for (const listener of this.listeners) listener();
    });
  }

  /** Calls `listener` on each wake until the returned function is called. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
