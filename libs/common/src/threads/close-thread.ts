import type { Worker } from 'node:worker_threads';

/**
 * Asks a worker thread to close (`message`, which the thread answers by finishing its work and
 * exiting) and waits for `exited`, which resolves when it has; a thread still running after
 * `timeoutMs` is terminated. The thread is held open (ref) meanwhile, so that the process waits for
 * it.
 */
export async function closeThread(
  worker: Worker,
  message: unknown,
  exited: Promise<unknown>,
  timeoutMs: number,
): Promise<void> {
  worker.ref();
  worker.postMessage(message);
  const timer = setTimeout(() => void worker.terminate(), timeoutMs);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}
