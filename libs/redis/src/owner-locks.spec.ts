import Redis from 'ioredis';
import { OwnerLocks } from './owner-locks';

// Shared between instances through a real Redis: test/links-bulk-load.e2e-spec.ts.
describe(OwnerLocks.name, () => {
  it('without Redis: one holder per owner and scope in this process, free again once released', async () => {
    const locks = new OwnerLocks(null);
    const first = await locks.tryAcquire('links-bulk', 1);
    expect(first).not.toBeNull();
    expect(await locks.tryAcquire('links-bulk', 1)).toBeNull();
    expect(await locks.tryAcquire('links-bulk', 2)).not.toBeNull();
    expect(await locks.tryAcquire('other', 1)).not.toBeNull();
    await first!();
    await first!();
    expect(await locks.tryAcquire('links-bulk', 1)).not.toBeNull();
  });

  it('while Redis is unreachable, locks in this process instead of failing', async () => {
    const down = new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      const locks = new OwnerLocks(down);
      const held = await locks.tryAcquire('links-bulk', 7);
      expect(held).not.toBeNull();
      expect(await locks.tryAcquire('links-bulk', 7)).toBeNull();
      await held!();
      expect(await locks.tryAcquire('links-bulk', 7)).not.toBeNull();
    } finally {
      down.disconnect();
    }
  });

  it('when a Redis command fails, locks in this process and warns once', async () => {
    const failing = {
      status: 'ready',
      set: () => Promise.reject(new Error('Connection is closed.')),
    } as unknown as Redis;
    const locks = new OwnerLocks(failing);
    const warn = jest
      .spyOn((locks as unknown as { logger: { warn: (m: string) => void } }).logger, 'warn')
      .mockImplementation(() => undefined);
    const first = await locks.tryAcquire('links-bulk', 3);
    expect(first).not.toBeNull();
    expect(await locks.tryAcquire('links-bulk', 3)).toBeNull();
    expect(await locks.tryAcquire('links-bulk', 4)).not.toBeNull();
    expect(warn.mock.calls).toEqual([
      ['Redis owner locks failed, locking in this process: Error: Connection is closed.'],
    ]);
  });
});
