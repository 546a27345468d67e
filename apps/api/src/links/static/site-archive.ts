import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import * as yauzl from 'yauzl';
import { AppError } from '@app/common';
import type { SiteDraft } from '@app/storage';
import { InvalidSitePathError, SiteFileTooLargeError } from '@app/storage';
import { classifyEntryName, isSymlinkEntry, siteRoot } from './site-files';

export interface SiteLimits {
  /** Total bytes of the unpacked site. */
  maxBytes: number;
  /** Files of the unpacked site. */
  maxFiles: number;
}

/**
 * An entry may inflate to at most this many times its compressed size once it is larger than
 * RATIO_FLOOR bytes: ordinary web files stay far below (text 3–20×), zip bombs far above (~1000×).
 * The same holds for the whole archive: the bytes of all its entries against the archive's size,
 * so that many entries each under the floor cannot add up to a bomb.
 */
export const MAX_COMPRESSION_RATIO = 200;
export const RATIO_FLOOR = 1024 * 1024;

export interface UnpackedFiles {
  files: string[];
  bytes: number;
}

const bad = (title: string): AppError => new AppError('archive_rejected', title, 'file');
const tooLarge = (title: string): AppError => new AppError('payload_too_large', title, 'file');

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(
      path,
      {
        lazyEntries: true,
        autoClose: false,
        decodeStrings: true,
        strictFileNames: true,
        validateEntrySizes: true,
      },
      (err, zip) => (err ? reject(translate(err)) : resolve(zip)),
    ),
  );
}

/** yauzl's own checks, in words a person can act on. */
function translate(err: Error): AppError {
  const message = err.message;
  if (/^(absolute path|invalid relative path|invalid characters in fileName)/.test(message)) {
    return bad(`file has an entry whose path leaves the site folder (${shorten(message)}).`);
  }
  if (/too (many|few) bytes in the stream|expected .* bytes/.test(message)) {
    return bad('file has an entry whose size does not match its header.');
  }
  return bad(`file is not a readable .zip archive (${shorten(message)}).`);
}

function shorten(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** Reads the central directory and decides which entries become which files. */
async function planEntries(
  zip: yauzl.ZipFile,
  limits: SiteLimits,
): Promise<Array<{ entry: yauzl.Entry; path: string }>> {
  // Directories and skipped files count too, so the central directory cannot be used to make
  // us walk millions of entries.
  if (zip.entryCount > limits.maxFiles * 4 + 64) {
    throw tooLarge(
      `file has ${zip.entryCount} entries; a site may have at most ${limits.maxFiles} files.`,
    );
  }
  const kept: Array<{ entry: yauzl.Entry; path: string }> = [];
  let declared = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on('error', (err: Error) => reject(err instanceof AppError ? err : translate(err)));
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      try {
        // macOS writes names in NFD; they are stored, compared and served in NFC.
        const name = entry.fileName.normalize('NFC');
        const verdict = classifyEntryName(name);
        if (verdict.kind === 'reject' && verdict.reason === 'unstorable') {
          throw bad(
            `file has an entry whose name is too long to store (${shorten(JSON.stringify(name))}).`,
          );
        }
        if (verdict.kind === 'reject') {
          throw bad(
            `file has an entry whose path leaves the site folder (${shorten(JSON.stringify(name))}).`,
          );
        }
        if (isSymlinkEntry(entry.externalFileAttributes)) {
          throw bad(
            `file has a symbolic link (${shorten(JSON.stringify(name))}); only regular files are accepted.`,
          );
        }
        if (verdict.kind === 'keep') {
          if (entry.isEncrypted()) {
            throw bad('file has encrypted entries; upload an archive without a password.');
          }
          kept.push({ entry, path: verdict.path });
          declared += entry.uncompressedSize;
          if (kept.length > limits.maxFiles) {
            throw tooLarge(
              `file has more than ${limits.maxFiles} files; that is the most a site may have.`,
            );
          }
          if (declared > limits.maxBytes) {
            throw tooLarge(
              `file unpacks to more than ${limits.maxBytes} bytes; that is the most a site may have.`,
            );
          }
        }
        zip.readEntry();
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    zip.readEntry();
  });
  return kept;
}

/**
 * Refuses names that collide (twice the same file, or a file where a folder must be). The paths
 * are NFC already; case is ignored, as some file systems and many habits ignore it.
 */
function checkCollisions(paths: readonly string[]): void {
  const files = new Set<string>();
  const folders = new Set<string>();
  for (const path of paths) {
    const key = path.toLowerCase();
    if (files.has(key)) {
      throw bad(`file has the entry ${shorten(JSON.stringify(path))} twice.`);
    }
    files.add(key);
    const segments = key.split('/');
    for (let i = 1; i < segments.length; i += 1) {
      folders.add(segments.slice(0, i).join('/'));
    }
  }
  for (const folder of folders) {
    if (files.has(folder)) {
      throw bad(`file has ${shorten(JSON.stringify(folder))} both as a file and as a folder.`);
    }
  }
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) => (err ? reject(translate(err)) : resolve(stream))),
  );
}

/** Bytes inflated so far from the whole archive, and the archive's own size. */
interface Inflation {
  total: number;
  archiveBytes: number;
}

const exceedsRatio = (inflated: number, compressed: number): boolean =>
  inflated > RATIO_FLOOR && inflated > Math.max(compressed, 1) * MAX_COMPRESSION_RATIO;

/**
 * Counts the bytes actually inflated (headers are not trusted): more than the site's remaining
 * budget is a 413, and so is an entry, or the archive as a whole, that inflates past
 * MAX_COMPRESSION_RATIO.
 */
function inflationGuard(budget: number, compressedSize: number, inflation: Inflation): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      inflation.total += chunk.length;
      if (seen > budget) {
        done(new SiteFileTooLargeError());
        return;
      }
      if (exceedsRatio(seen, compressedSize)) {
        done(
          tooLarge(
            `file has an entry that inflates more than ${MAX_COMPRESSION_RATIO} times its compressed size.`,
          ),
        );
        return;
      }
      if (exceedsRatio(inflation.total, inflation.archiveBytes)) {
        done(
          tooLarge(
            `file inflates to more than ${MAX_COMPRESSION_RATIO} times the size of the archive.`,
          ),
        );
        return;
      }
      done(null, chunk);
    },
  });
}

/** A failed entry write in the API's words; file-system faults stay 500s. */
function writeError(error: unknown, path: string, limits: SiteLimits): unknown {
  if (error instanceof SiteFileTooLargeError) {
    return tooLarge(
      `file unpacks to more than ${limits.maxBytes} bytes; that is the most a site may have.`,
    );
  }
  if (error instanceof InvalidSitePathError) {
    // The name checks above should make this unreachable; the storage checks again regardless.
    return bad(`file has an entry whose name cannot be stored (${shorten(JSON.stringify(path))}).`);
  }
  if (error instanceof AppError || !(error instanceof Error) || 'code' in error) {
    return error;
  }
  return translate(error);
}

/**
 * Unpacks a .zip into a draft, streaming one entry at a time. The root folder is chosen before
 * anything is written; the caller discards the draft when this throws.
 */
export async function unpackZip(
  archivePath: string,
  draft: SiteDraft,
  limits: SiteLimits,
): Promise<UnpackedFiles> {
  const zip = await openZip(archivePath);
  try {
    const kept = await planEntries(zip, limits);
    const paths = kept.map((k) => k.path);
    checkCollisions(paths);
    const root = siteRoot(paths);
    if (root === null) {
      throw bad('file must have index.html at its root or inside one top-level folder.');
    }
    const files: string[] = [];
    let bytes = 0;
    const inflation: Inflation = { total: 0, archiveBytes: zip.fileSize };
    for (const { entry, path } of kept) {
      const source = await openEntry(zip, entry);
      const guard = inflationGuard(limits.maxBytes - bytes, entry.compressedSize, inflation);
      source.on('error', (err: Error) =>
        guard.destroy(err instanceof AppError ? err : translate(err)),
      );
      // The error may come before the draft's pipeline listens; it reads it from the stream then.
      guard.on('error', () => undefined);
      const relative = path.slice(root.length);
      try {
        bytes += await draft.write(relative, source.pipe(guard), limits.maxBytes - bytes);
      } catch (error) {
        source.destroy();
        throw writeError(error, relative, limits);
      }
      files.push(relative);
    }
    return { files, bytes };
  } finally {
    zip.close();
  }
}
