import { AppError, RetryLaterError } from '../errors/app-error';
import { ImageQueue } from './image-queue';

/** A task the test finishes by hand, recording when it started. */
function gate(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    finish: () => finish(),
    work: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
      return name;
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe(ImageQueue.name, () => {
  it('runs at most inFlight tasks at once; the others wait their turn in order', async () => {
    const log: string[] = [];
    const queue = new ImageQueue(2, 10);
    const tasks = ['a', 'b', 'c', 'd'].map((n) => gate(log, n));
    const results = tasks.map((t) => queue.run(t.work));
    await tick();
    expect(log).toEqual(['start a', 'start b']);
    expect(queue.size).toEqual({ running: 2, waiting: 2 });
    tasks[1].finish();
    await tick();
    expect(log).toEqual(['start a', 'start b', 'end b', 'start c']);
    tasks[0].finish();
    tasks[2].finish();
    tasks[3].finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
    expect(queue.size).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the slot of a task that fails', async () => {
    const queue = new ImageQueue(1, 10);
    await expect(queue.run(() => Promise.reject(new Error('bad image')))).rejects.toThrow(
      'bad image',
    );
    expect(await queue.run(() => Promise.resolve('next'))).toBe('next');
    expect(queue.size).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses at once with 503 server_busy and Retry-After past maxWaiting callers', async () => {
    const log: string[] = [];
    const queue = new ImageQueue(1, 2, 7);
    const tasks = ['a', 'b', 'c'].map((n) => gate(log, n));
    const results = tasks.map((t) => queue.run(t.work));
    const refused: unknown = await queue.run(() => Promise.resolve('d')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RetryLaterError);
    expect((refused as RetryLaterError).retryAfterSeconds).toBe(7);
    expect((refused as AppError).toEntries()).toEqual([
      {
        status: 503,
        title: 'The server is busy processing images. Try again in a few seconds.',
        code: 'server_busy',
      },
    ]);
    tasks.forEach((t) => t.finish());
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
  });
});
