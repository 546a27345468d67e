import { mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { LocalSiteStorage } from './local-site-storage';
import { InvalidSitePathError, SiteFileTooLargeError, sitePathSegments } from './site-storage';

describe(LocalSiteStorage.name, () => {
  let root: string;
  let storage: LocalSiteStorage;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'linkdock-sites-'));
    storage = new LocalSiteStorage(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('keeps a draft unreadable until it is published, then serves its files', async () => {
    const draft = await storage.createDraft();
    expect(await draft.write('index.html', Buffer.from('<p>hi'))).toBe(5);
    expect(await draft.write('css/a.css', Readable.from([Buffer.from('a{}')]))).toBe(3);
    const site = { siteId: draft.siteId, version: draft.version };
    expect(await storage.open(site, 'index.html')).toBeNull();
    await draft.publish();
    const file = await storage.open(site, 'index.html');
    expect(file?.size).toBe(5);
    expect(Math.abs(Date.now() - (file?.mtime.getTime() ?? 0))).toBeLessThan(60_000);
    expect(await text(file?.stream() ?? Readable.from([]))).toBe('<p>hi');
    expect(await storage.stat(site, 'css')).toMatchObject({ kind: 'directory' });
    expect(await storage.stat(site, 'css/a.css')).toMatchObject({ kind: 'file', size: 3 });
    expect(await storage.open(site, 'css')).toBeNull();
    expect(await storage.open(site, 'missing.html')).toBeNull();
  });

  it('refuses paths that could leave the version, without touching the disk', async () => {
    const draft = await storage.createDraft();
    for (const path of [
      '../x.html',
      'a/../../x.html',
      '/etc/passwd',
      'a\\b.html',
      'C:/x',
      '.env',
      'a//b',
      '',
      'a/\u0000',
    ]) {
      await expect(draft.write(path, Buffer.from('x'))).rejects.toBeInstanceOf(
        InvalidSitePathError,
      );
    }
    await draft.publish();
    const site = { siteId: draft.siteId, version: draft.version };
    expect(await storage.open(site, '../../../etc/passwd')).toBeNull();
    expect(await storage.open({ siteId: '..', version: draft.version }, 'index.html')).toBeNull();
    expect(readdirSync(join(root, draft.siteId, draft.version))).toEqual([]);
  });

  it('does not follow a symbolic link placed in a version', async () => {
    const draft = await storage.createDraft();
    await draft.write('index.html', Buffer.from('x'));
    await draft.publish();
    const secret = join(root, 'secret.txt');
    writeFileSync(secret, 'secret');
    symlinkSync(secret, join(root, draft.siteId, draft.version, 'link.txt'));
    expect(
      await storage.open({ siteId: draft.siteId, version: draft.version }, 'link.txt'),
    ).toBeNull();
  });

  it('stops a write at its byte bound', async () => {
    const draft = await storage.createDraft();
    await expect(draft.write('big.txt', Buffer.alloc(11), 10)).rejects.toBeInstanceOf(
      SiteFileTooLargeError,
    );
    await draft.discard();
    expect(readdirSync(root)).toEqual([]);
  });

  it('removes one version, then the whole site', async () => {
    const first = await storage.createDraft();
    await first.write('index.html', Buffer.from('1'));
    await first.publish();
    const second = await storage.createDraft(first.siteId);
    await second.write('index.html', Buffer.from('2'));
    await second.publish();
    await storage.removeVersion({ siteId: first.siteId, version: first.version });
    expect(readdirSync(join(root, first.siteId))).toEqual([second.version]);
    await storage.removeSite(first.siteId);
    expect(readdirSync(root)).toEqual([]);
  });

  it('marks a retired version as modified now, so a sweep counts its grace from then', async () => {
    const draft = await storage.createDraft();
    await draft.write('index.html', Buffer.from('<p>old'));
    await draft.publish();
    const site = { siteId: draft.siteId, version: draft.version };
    const longAgo = new Date(Date.now() - 24 * 60 * 60 * 1000);
    utimesSync(join(root, site.siteId, site.version), longAgo, longAgo);
    const modified = async () => (await storage.listSites())[0].versions[0].modified.getTime();
    expect(await modified()).toBe(longAgo.getTime());
    await storage.retireVersion(site);
    expect(Math.abs(Date.now() - (await modified()))).toBeLessThan(60_000);
    expect(await storage.stat(site, 'index.html')).toMatchObject({ kind: 'file' });
    await storage.removeVersion(site);
    await expect(storage.retireVersion(site)).resolves.toBeUndefined();
  });
});

describe(sitePathSegments.name, () => {
  it('accepts plain relative paths and nothing else', () => {
    expect(sitePathSegments('css/site.css')).toEqual(['css', 'site.css']);
    expect(sitePathSegments('héllo wörld.html')).toEqual(['héllo wörld.html']);
    for (const bad of ['..', 'a/..', './a', '/a', 'a/', 'a\\b', 'c:x', '.git/config', 'a\u0001']) {
      expect([bad, sitePathSegments(bad)]).toEqual([bad, null]);
    }
  });
});
