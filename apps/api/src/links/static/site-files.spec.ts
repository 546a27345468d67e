import { classifyEntryName, isSymlinkEntry, siteRoot } from './site-files';

describe(classifyEntryName.name, () => {
  it.each([
    ['index.html', { kind: 'keep', path: 'index.html' }],
    ['site/css/a.CSS', { kind: 'keep', path: 'site/css/a.CSS' }],
    ['fonts/x.woff2', { kind: 'keep', path: 'fonts/x.woff2' }],
    ['site/', { kind: 'skip' }],
    ['__MACOSX/._index.html', { kind: 'skip' }],
    ['site/.DS_Store', { kind: 'skip' }],
    ['.git/config.json', { kind: 'skip' }],
    ['server.php', { kind: 'skip' }],
    ['README', { kind: 'skip' }],
    ['../evil.html', { kind: 'reject', reason: 'escapes' }],
    ['a/../../evil.html', { kind: 'reject', reason: 'escapes' }],
    ['./a.html', { kind: 'reject', reason: 'escapes' }],
    ['/etc/x.html', { kind: 'reject', reason: 'escapes' }],
    ['C:/x.html', { kind: 'reject', reason: 'escapes' }],
    ['c:x.html', { kind: 'reject', reason: 'escapes' }],
    ['a\\b.html', { kind: 'reject', reason: 'escapes' }],
    ['a//b.html', { kind: 'reject', reason: 'escapes' }],
    ['a\u0000.html', { kind: 'reject', reason: 'escapes' }],
    ['a/b:c.html', { kind: 'reject', reason: 'escapes' }],
    ['', { kind: 'reject', reason: 'unstorable' }],
    [`${'é'.repeat(128)}.html`, { kind: 'reject', reason: 'unstorable' }],
    [`${'a/'.repeat(300)}x.html`, { kind: 'reject', reason: 'unstorable' }],
  ])('%j → %j', (name, verdict) => {
    expect(classifyEntryName(name)).toEqual(verdict);
  });
});

describe(isSymlinkEntry.name, () => {
  it('reads the unix file type from the high 16 bits', () => {
    expect(isSymlinkEntry((0o120777 << 16) >>> 0)).toBe(true);
    expect(isSymlinkEntry((0o100644 << 16) >>> 0)).toBe(false);
    expect(isSymlinkEntry(0x20)).toBe(false); // an MS-DOS archive bit only
  });
});

describe(siteRoot.name, () => {
  it('finds index.html at the top or inside the one top-level folder', () => {
    expect(siteRoot(['index.html', 'a/b.css'])).toBe('');
    expect(siteRoot(['site/index.html', 'site/a.css'])).toBe('site/');
    expect(siteRoot(['site/index.html', 'other/a.css'])).toBeNull();
    expect(siteRoot(['site/index.html', 'readme.txt'])).toBeNull();
    expect(siteRoot(['a/b/index.html'])).toBeNull();
    expect(siteRoot(['about.html'])).toBeNull();
  });
});
