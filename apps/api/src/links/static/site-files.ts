import { extensionOf } from '@app/links';
import { hasControlCharacter } from '@app/storage';

/** File types a static site may contain; anything else in an archive is skipped. */
export const SITE_EXTENSIONS: ReadonlySet<string> = new Set([
  // documents and data
  'html',
  'htm',
  'css',
  'js',
  'mjs',
  'json',
  'map',
  'txt',
  'xml',
  'csv',
  'md',
  'webmanifest',
  'pdf',
  // images
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'avif',
  'svg',
  'ico',
  'bmp',
  // fonts
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
  // media
  'mp3',
  'mp4',
  'm4a',
  'webm',
  'ogg',
  'oga',
  'ogv',
  'wav',
  'vtt',
]);

/** Names of files and folders longer than this (UTF-8 bytes) are refused: file systems do. */
export const MAX_SEGMENT_BYTES = 255;
/** Entry names longer than this (bytes of UTF-16 code units) are refused. */
export const MAX_ENTRY_NAME = 512;

export type EntryVerdict =
  | { kind: 'keep'; path: string }
  | { kind: 'skip' }
  /** `escapes`: the name could leave the folder; `unstorable`: no file system takes it. */
  | { kind: 'reject'; reason: 'escapes' | 'unstorable' };

const ESCAPES: EntryVerdict = { kind: 'reject', reason: 'escapes' };
const UNSTORABLE: EntryVerdict = { kind: 'reject', reason: 'unstorable' };

/**
 * What to do with an archive entry by its name alone. Names that could leave the site folder
 * (absolute, drive letters, `..`, backslashes, control characters) are rejected; directories,
 * dotfiles and dot-folders, `__MACOSX` and files of other types are skipped.
 */
export function classifyEntryName(name: string): EntryVerdict {
  if (
    name.startsWith('/') ||
    /^[A-Za-z]:/.test(name) ||
    name.includes('\\') ||
    hasControlCharacter(name)
  ) {
    return ESCAPES;
  }
  if (name.length === 0 || name.length > MAX_ENTRY_NAME) {
    return UNSTORABLE;
  }
  const segments = name.split('/');
  if (segments.some((s) => s === '..' || s === '.')) {
    return ESCAPES;
  }
  if (name.endsWith('/')) {
    return { kind: 'skip' };
  }
  if (segments.some((s) => s === '')) {
    return ESCAPES;
  }
  if (segments[0] === '__MACOSX' || segments.some((s) => s.startsWith('.'))) {
    return { kind: 'skip' };
  }
  if (segments.some((s) => s.includes(':'))) {
    return ESCAPES;
  }
  if (segments.some((s) => Buffer.byteLength(s) > MAX_SEGMENT_BYTES)) {
    return UNSTORABLE;
  }
  return SITE_EXTENSIONS.has(extensionOf(name)) ? { kind: 'keep', path: name } : { kind: 'skip' };
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Unix file type bits live in the high 16 bits of the external attributes. */
export function isSymlinkEntry(externalFileAttributes: number): boolean {
  return ((externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;
}

/**
 * The folder that becomes the site's root: '' when index.html is at the top, `<folder>/` when
 * every file is inside one top-level folder that holds index.html, null otherwise.
 */
export function siteRoot(paths: readonly string[]): string | null {
  if (paths.includes('index.html')) {
    return '';
  }
  const tops = new Set(paths.map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/') + 1) : p)));
  if (tops.size !== 1) {
    return null;
  }
  const [top] = [...tops];
  return top.endsWith('/') && paths.includes(`${top}index.html`) ? top : null;
}
