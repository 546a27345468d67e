/**
 * At most `size` pieces of work at once; the others wait their turn, first come first served.
 * Work that yields between chunks still shares each turn of the event loop with every other
 * running piece: bounding how many run bounds how long a turn (and any other request) waits.
 */
export class WorkSlots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  /** How many run now and how many wait for a slot. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) {
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
