/**
 * Answers many concurrent questions of one kind with one call of `fetch`: the keys asked for
 * while a batch of checks runs are collected until the event loop's next turn, then fetched
 * together. Answers are kept for the loader's lifetime (one batch), so a key is fetched once.
 */
export class BatchLoader<K, V> {
  private readonly answers = new Map<K, Promise<V>>();
  private pending: Array<{
    key: K;
    resolve: (value: V) => void;
    reject: (error: unknown) => void;
  }> = [];

  constructor(
    private readonly fetch: (keys: K[]) => Promise<ReadonlyMap<K, V>>,
    /** The answer for a key that `fetch` does not return. */
    private readonly absent: V,
  ) {}

  load(key: K): Promise<V> {
    let answer = this.answers.get(key);
    if (answer === undefined) {
      answer = new Promise<V>((resolve, reject) => {
        this.pending.push({ key, resolve, reject });
        if (this.pending.length === 1) {
          setImmediate(() => void this.dispatch());
        }
      });
      this.answers.set(key, answer);
    }
    return answer;
  }

  private async dispatch(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    try {
      const found = await this.fetch(batch.map((item) => item.key));
      for (const item of batch) {
        item.resolve(found.has(item.key) ? found.get(item.key)! : this.absent);
      }
    } catch (error) {
      for (const item of batch) {
        item.reject(error);
      }
    }
  }
}
