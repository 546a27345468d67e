import type { Transferable, Worker } from 'node:worker_threads';

interface Waiting<T> {
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

/**
 * Calls to a worker thread answered by id: each call is sent with a new id and settled when the
 * thread's reply with that id arrives. The thread is held open (ref) only while a call is
 * outstanding, so an idle thread never keeps the process alive.
 */
export class ThreadCalls<T> {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting<T>>();

  /** Sends `message(id)` to the thread; resolves with what `settle` is given for that id. */
  call(worker: Worker, message: (id: number) => unknown, transfer?: Transferable[]): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage(message(id), transfer);
    });
  }

  /** The thread's answer to call `id`: a value, or an error to reject it with. */
  settle(worker: Worker | null, id: number, answer: { value: T } | { error: Error }): void {
    const waiting = this.waiting.get(id);
    this.waiting.delete(id);
    if (this.waiting.size === 0) worker?.unref();
    if ('error' in answer) waiting?.reject(answer.error);
    else waiting?.resolve(answer.value);
  }

  /** Rejects every outstanding call (the thread is gone). */
  failAll(error: Error): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiting) w.reject(error);
  }
}
