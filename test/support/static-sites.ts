import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { writeZip, ZipEntrySpec } from '@app/testing';

/** Every file under a directory (relative paths, sorted), symlinks included. */
export function walkFiles(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        visit(path);
      } else {
        out.push(relative(root, path));
      }
    }
  };
  visit(root);
  return out.sort();
}

/** The files of DATA_DIR that belong to sites and uploads (not the database or the key). */
export function storedSiteFiles(dataDir: string): string[] {
  return walkFiles(dataDir).filter((p) => p.startsWith('sites/') || p.startsWith('tmp/'));
}

/** A 1×1 PNG, 2×2 actually: enough for an <img> to have a natural width. */
export const PNG_2X2 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);

/** A small site in one top-level folder: a page, its stylesheet, an image and a sub-page. */
export function demoSite(folder = 'site', title = 'Demo'): Buffer {
  const entries: ZipEntrySpec[] = [
    { name: `${folder}/` },
    {
      name: `${folder}/index.html`,
      data: `<!doctype html><html><head><title>${title}</title><link rel="stylesheet" href="css/site.css"></head><body><h1 id="title">${title}</h1><img id="logo" src="img/logo.png" alt=""></body></html>`,
    },
    { name: `${folder}/css/site.css`, data: 'h1 { color: rgb(12, 34, 56); }\n' },
    { name: `${folder}/img/logo.png`, data: PNG_2X2, method: 'store' },
    { name: `${folder}/docs/index.html`, data: '<!doctype html><p>docs</p>' },
    { name: '__MACOSX/._index.html', data: 'resource fork' },
    { name: `${folder}/.DS_Store`, data: 'junk' },
    { name: `${folder}/server.php`, data: '<?php echo 1;' },
  ];
  return writeZip(entries);
}
