import { CounterThrottlerStorage } from './counter-throttler.storage';

describe(CounterThrottlerStorage.name, () => {
  let now: number;
  let storage: CounterThrottlerStorage;

  beforeEach(() => {
    now = 1_000_000;
    storage = new CounterThrottlerStorage(4, () => now);
  });
  afterEach(() => storage.onApplicationShutdown());

  const hit = (key = 'k', limit = 2, blockDuration = 30_000) =>
    storage.increment(key, 60_000, limit, blockDuration, 'default');

  it('counts hits in a window of ttl and answers the seconds left', async () => {
    expect(await hit()).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    now += 1_500;
    expect(await hit()).toEqual({
      totalHits: 2,
      timeToExpire: 59,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
  });

  it('blocks the hit past the limit for blockDuration, and keeps counting while blocked', async () => {
    await hit();
    await hit();
    expect(await hit()).toEqual({
      totalHits: 3,
      timeToExpire: 60,
      isBlocked: true,
      timeToBlockExpire: 30,
    });
    now += 10_000;
    expect(await hit()).toEqual({
      totalHits: 4,
      timeToExpire: 50,
      isBlocked: true,
      timeToBlockExpire: 20,
    });
  });

  it('blocks again when the block ends inside a window that is still over the limit', async () => {
    await hit();
    await hit();
    await hit();
    now += 30_000;
    expect(await hit()).toMatchObject({ totalHits: 4, isBlocked: true, timeToBlockExpire: 30 });
  });

  it('opens a new window once the last one ended and no block is left', async () => {
    await hit();
    await hit();
    await hit();
    now += 60_000;
    expect(await hit()).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
  });

  it('keeps a block that outlives its window, counting in a new window', async () => {
    await hit('k', 2, 90_000);
    await hit('k', 2, 90_000);
    await hit('k', 2, 90_000);
    now += 61_000;
    expect(await hit('k', 2, 90_000)).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: true,
      timeToBlockExpire: 29,
    });
    now += 29_000;
    expect(await hit('k', 2, 90_000)).toMatchObject({ totalHits: 2, isBlocked: false });
  });

  it('without a block duration refuses only while the window is over the limit', async () => {
    await hit('k', 1, 0);
    expect(await hit('k', 1, 0)).toEqual({
      totalHits: 2,
      timeToExpire: 60,
      isBlocked: true,
      timeToBlockExpire: 60,
    });
    now += 60_000;
    expect(await hit('k', 1, 0)).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('keeps keys and throttler names apart', async () => {
    await hit('a');
    await hit('a');
    expect(await hit('b')).toMatchObject({ totalHits: 1 });
    expect(await storage.increment('a', 60_000, 2, 30_000, 'burst')).toMatchObject({
      totalHits: 1,
    });
  });

  it('sweeps the windows that ended, but not a running block', async () => {
    await hit('a');
    await hit('b', 0, 90_000);
    now += 60_000;
    storage.sweep();
    expect(storage.size).toBe(1);
    now += 30_000;
    storage.sweep();
    expect(storage.size).toBe(0);
  });

  it('stays within its bound, forgetting ended windows first, then the oldest', async () => {
    await hit('old');
    now += 60_000;
    for (const key of ['a', 'b', 'c']) await hit(key);
    await hit('d');
    expect(storage.size).toBe(4);
    expect(await hit('a')).toMatchObject({ totalHits: 2 });
    await hit('e');
    expect(storage.size).toBe(4);
    // 'a' opened first of the live windows, so it was forgotten.
    expect(await hit('a')).toMatchObject({ totalHits: 1 });
  });
});
