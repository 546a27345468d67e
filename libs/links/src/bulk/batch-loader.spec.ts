import { BatchLoader } from './batch-loader';

describe(BatchLoader.name, () => {
  it('answers the keys asked for together with one fetch, and each key once', async () => {
    const fetched: string[][] = [];
    const loader = new BatchLoader<string, number>((keys) => {
      fetched.push(keys);
      return Promise.resolve(new Map(keys.filter((k) => k !== 'c').map((k) => [k, k.length])));
    }, -1);
    const answers = await Promise.all(['a', 'bb', 'a', 'c'].map((key) => loader.load(key)));
    expect(answers).toEqual([1, 2, 1, -1]);
    expect(fetched).toEqual([['a', 'bb', 'c']]);
    expect(await loader.load('bb')).toBe(2);
    expect(await loader.load('ddd')).toBe(3);
    expect(fetched).toEqual([['a', 'bb', 'c'], ['ddd']]);
  });

  it('rejects every key of a failed fetch', async () => {
    const loader = new BatchLoader<number, boolean>(() => Promise.reject(new Error('down')), false);
    const results = await Promise.allSettled([loader.load(1), loader.load(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
