import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { LocalObjectStore } from './local-object-store';
import { InvalidObjectKeyError, ObjectTooLargeError } from './object-store';

describe(LocalObjectStore.name, () => {
  let root: string;
  let store: LocalObjectStore;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'linkdock-objects-'));
    store = new LocalObjectStore(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  async function keys(prefix: string): Promise<string[]> {
    const out: string[] = [];
    for await (const object of store.list(prefix)) out.push(object.key);
    return out.sort();
  }

  it('keeps objects as files under its root, read whole or by range', async () => {
    expect(await store.put('uploads/a/one.txt', Buffer.from('hello world'))).toBe(11);
    expect(await store.put('uploads/two.txt', Readable.from([Buffer.from('ab')]))).toBe(2);
    expect(readdirSync(join(root, 'uploads', 'a'))).toEqual(['one.txt']);
    const object = await store.get('uploads/a/one.txt');
    expect(await text(object?.stream({ start: 6, end: 10 }) ?? Readable.from([]))).toBe('world');
    expect((await (await store.get('uploads/two.txt'))?.buffer())?.toString()).toBe('ab');
    expect(await store.head('uploads/two.txt')).toMatchObject({ size: 2 });
    expect(await store.get('uploads/none')).toBeNull();
    expect(await keys('uploads/')).toEqual(['uploads/a/one.txt', 'uploads/two.txt']);
    expect(await keys('uploads/a')).toEqual(['uploads/a/one.txt']);
    expect(await keys('')).toEqual(['uploads/a/one.txt', 'uploads/two.txt']);
    await store.delete(['uploads/a/one.txt', 'uploads/missing']);
    expect(await keys('uploads/')).toEqual(['uploads/two.txt']);
  });

  it('refuses bad keys, leaves nothing of a too large object and follows no symbolic link', async () => {
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a//b', 'a\\b', '']) {
      await expect(store.put(key, Buffer.from('x'))).rejects.toBeInstanceOf(InvalidObjectKeyError);
    }
    await expect(
      store.put('big.bin', Readable.from([Buffer.alloc(6), Buffer.alloc(6)]), { maxBytes: 10 }),
    ).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect(readdirSync(root)).toEqual([]);
    writeFileSync(join(root, 'secret.txt'), 'secret');
    symlinkSync(join(root, 'secret.txt'), join(root, 'link.txt'));
    expect(await store.get('link.txt')).toBeNull();
    expect(await keys('')).toEqual(['secret.txt']);
  });
});
