import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { startS3Server, type TestS3Server } from '@app/testing';
import { CachingObjectStore } from './caching-object-store';
import { ObjectSiteStorage } from './object-site-storage';
import { InvalidObjectKeyError, ObjectStore, ObjectTooLargeError } from './object-store';
import { S3ObjectStore } from './s3-object-store';
import { InvalidSitePathError, SiteFileTooLargeError } from './site-storage';

async function keysOf(store: ObjectStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of store.list(prefix)) keys.push(object.key);
  return keys.sort();
}

describe(S3ObjectStore.name, () => {
  let s3: TestS3Server;
  let store: S3ObjectStore;

  beforeAll(async () => {
    s3 = await startS3Server();
    store = new S3ObjectStore(s3.config);
  });
  afterAll(async () => {
    await store.close();
    await s3.close();
  });

  it('puts, heads, reads (whole and by range), lists and deletes objects', async () => {
    expect(await store.put('a/one.txt', Buffer.from('hello world'))).toBe(11);
    expect(
      await store.put('a/b/two.txt', Readable.from([Buffer.from('ab'), Buffer.from('cd')])),
    ).toBe(4);
    expect(await store.head('a/one.txt')).toMatchObject({ key: 'a/one.txt', size: 11 });
    expect(await store.head('a/none.txt')).toBeNull();
    expect(await store.get('a/none.txt')).toBeNull();

    const object = await store.get('a/one.txt');
    expect(object?.size).toBe(11);
    expect(await text(object?.stream({ start: 6, end: 10 }) ?? Readable.from([]))).toBe('world');
    expect((await (await store.get('a/b/two.txt'))?.buffer())?.toString()).toBe('abcd');

    expect(await keysOf(store, 'a/')).toEqual(['a/b/two.txt', 'a/one.txt']);
    expect(await keysOf(store, 'a/b/')).toEqual(['a/b/two.txt']);
    await store.delete(['a/one.txt', 'a/missing.txt']);
    expect(await keysOf(store, 'a/')).toEqual(['a/b/two.txt']);
    await store.delete(['a/b/two.txt']);
  });

  it('refuses bad keys and stores nothing past a byte bound', async () => {
    for (const key of ['', '/a', 'a//b', 'a/../b', './a', 'a\\b', 'a\u0000']) {
      await expect(store.put(key, Buffer.from('x'))).rejects.toBeInstanceOf(InvalidObjectKeyError);
    }
    await expect(store.put('big.bin', Buffer.alloc(11), { maxBytes: 10 })).rejects.toBeInstanceOf(
      ObjectTooLargeError,
    );
    await expect(
      store.put('big.bin', Readable.from([Buffer.alloc(6), Buffer.alloc(6)]), { maxBytes: 10 }),
    ).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect(await store.head('big.bin')).toBeNull();
  });

  it('serves a small object from memory after its first read, and forgets a deleted one', async () => {
    const cached = new CachingObjectStore(store, 1024, 100);
    await cached.put('c/small.txt', Buffer.from('small'));
    await cached.put('c/large.txt', Buffer.alloc(200, 'x'));
    expect((await (await cached.get('c/small.txt'))?.buffer())?.toString()).toBe('small');
    // Gone from the bucket behind the cache's back: the cached copy still answers.
    await store.delete(['c/small.txt']);
    const again = await cached.get('c/small.txt');
    expect(await text(again?.stream({ start: 1, end: 3 }) ?? Readable.from([]))).toBe('mal');
    expect((await cached.get('c/large.txt'))?.size).toBe(200);
    expect(cached.snapshot()).toEqual({ hits: 1, misses: 2, bytes: 5, entries: 1 });
    await cached.delete(['c/small.txt', 'c/large.txt']);
    expect(await cached.get('c/small.txt')).toBeNull();
    expect(cached.snapshot()).toMatchObject({ bytes: 0, entries: 0 });
  });

  it('evicts the least recently used objects past its byte bound', async () => {
    const cached = new CachingObjectStore(store, 10, 10);
    for (const name of ['x', 'y', 'z']) await store.put(`e/${name}`, Buffer.alloc(4, name));
    await cached.get('e/x');
    await cached.get('e/y');
    await cached.get('e/x');
    await cached.get('e/z');
    expect(cached.snapshot()).toEqual({ hits: 1, misses: 3, bytes: 8, entries: 2 });
    await cached.get('e/x');
    expect(cached.snapshot().hits).toBe(2);
    await cached.get('e/y');
    expect(cached.snapshot().misses).toBe(4);
    await store.delete(['e/x', 'e/y', 'e/z']);
  });

  describe(ObjectSiteStorage.name, () => {
    let sites: ObjectSiteStorage;
    beforeAll(() => {
      sites = new ObjectSiteStorage(store);
    });

    it('keeps a draft unreadable until it is published, then serves its files', async () => {
      const draft = await sites.createDraft();
      expect(await draft.write('index.html', Buffer.from('<p>hi'))).toBe(5);
      expect(await draft.write('css/a.css', Readable.from([Buffer.from('a{}')]))).toBe(3);
      const site = { siteId: draft.siteId, version: draft.version };
      expect(await sites.open(site, 'index.html')).toBeNull();
      expect(await sites.stat(site, 'index.html')).toBeNull();
      expect(await sites.listSites()).toEqual([
        { siteId: draft.siteId, versions: [expect.objectContaining({ draft: true })] },
      ]);
      await draft.publish();
      const file = await sites.open(site, 'index.html');
      expect(file?.size).toBe(5);
      expect(await text(file?.stream() ?? Readable.from([]))).toBe('<p>hi');
      expect(await sites.stat(site, 'css')).toMatchObject({ kind: 'directory' });
      expect(await sites.stat(site, 'css/a.css')).toMatchObject({ kind: 'file', size: 3 });
      expect(await sites.open(site, 'css')).toBeNull();
      expect(await sites.open(site, '.published')).toBeNull();
      expect(await sites.open(site, '../../x')).toBeNull();
      await expect(draft.write('late.html', Buffer.from('x'))).rejects.toThrow('already published');
      await sites.removeSite(draft.siteId);
      expect(await sites.open(site, 'index.html')).toBeNull();
      expect(await keysOf(store, 'sites/')).toEqual([]);
    });

    it('refuses bad paths and too large files', async () => {
      const draft = await sites.createDraft();
      for (const path of ['../x.html', '/etc/passwd', '.env', 'a//b', 'a\\b.html', '']) {
        await expect(draft.write(path, Buffer.from('x'))).rejects.toBeInstanceOf(
          InvalidSitePathError,
        );
      }
      await expect(draft.write('big.txt', Buffer.alloc(11), 10)).rejects.toBeInstanceOf(
        SiteFileTooLargeError,
      );
      await draft.discard();
      expect(await keysOf(store, 'sites/')).toEqual([]);
    });

    it('retires and removes one version, keeping the other', async () => {
      const first = await sites.createDraft();
      await first.write('index.html', Buffer.from('1'));
      await first.publish();
      const second = await sites.createDraft(first.siteId);
      await second.write('index.html', Buffer.from('2'));
      await second.publish();
      const old = { siteId: first.siteId, version: first.version };
      await sites.retireVersion(old);
      expect(await keysOf(store, `sites/${first.siteId}/${first.version}/`)).toEqual([
        `sites/${first.siteId}/${first.version}/.published`,
        `sites/${first.siteId}/${first.version}/.retired`,
        `sites/${first.siteId}/${first.version}/index.html`,
      ]);
      await sites.removeVersion(old);
      expect(await sites.open(old, 'index.html')).toBeNull();
      const current = await sites.open(
        { siteId: second.siteId, version: second.version },
        'index.html',
      );
      expect(await text(current?.stream() ?? Readable.from([]))).toBe('2');
      expect((await sites.listSites()).map((s) => s.versions.map((v) => v.version))).toEqual([
        [second.version],
      ]);
      await sites.removeSite(first.siteId);
    });
  });
});
