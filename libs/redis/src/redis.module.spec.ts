import { createRedisClient } from './redis.module';

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
