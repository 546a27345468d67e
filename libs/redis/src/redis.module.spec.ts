import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { closeRedisClient, createRedisClient, duplicateRedisClient } from './redis.module';

describe(createRedisClient.name, () => {
  it('leaves no long timer behind when closed while Redis is down (the process can exit)', async () => {
    const client = createRedisClient('redis://127.0.0.1:1');
    await new Promise<void>((resolve) => client.once('reconnecting', () => resolve()));
    const setTimeoutSpy = jest.spyOn(global, 'setTimeout');
    try {
      client.disconnect();
      const delays = setTimeoutSpy.mock.calls.map(([, ms]) => ms ?? 0);
      expect(delays.filter((ms) => ms > 100)).toEqual([]);
    } finally {
      setTimeoutSpy.mockRestore();
    }
  });
});

describe('Redis outages', () => {
  const warnings: string[] = [];
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warnings.length = 0;
    warn = jest
      .spyOn(Logger.prototype, 'warn')
      .mockImplementation((message: unknown) => void warnings.push(String(message)));
  });
  afterEach(() => warn.mockRestore());

  const reconnects = (client: Redis, times: number) =>
    new Promise<void>((resolve) => {
      let seen = 0;
      const count = () => {
        seen += 1;
        if (seen < times) return;
        client.off('reconnecting', count);
        resolve();
      };
      client.on('reconnecting', count);
    });

  it('logs an unreachable Redis once, with the password of REDIS_URL masked', async () => {
    const client = createRedisClient('redis://user:secret@127.0.0.1:1');
    await reconnects(client, 3);
    client.disconnect();
    expect(warnings).toEqual([
      'Redis (REDIS_URL redis://user:***@127.0.0.1:1) is unreachable: connect ECONNREFUSED 127.0.0.1:1',
    ]);
  });

  it('leaves the report to the client a subscriber copies, and keeps its commands waiting', async () => {
    const client = createRedisClient('redis://127.0.0.1:1', false);
    const subscriber = duplicateRedisClient(client);
    const subscribed = subscriber.subscribe('channel').then(
      () => 'subscribed',
      () => 'gave up',
    );
    await reconnects(subscriber, 4);
    const settled = await Promise.race([subscribed, Promise.resolve('waiting')]);
    // Closing does not wait for Redis to come back, as a QUIT would (for ever, on a subscriber).
    const closing = Date.now();
    await closeRedisClient(subscriber);
    await closeRedisClient(client);
    const closedInMs = Date.now() - closing;
    expect({ warnings, settled }).toEqual({ warnings: [], settled: 'waiting' });
    expect(closedInMs).toBeLessThan(100);
  });
});
