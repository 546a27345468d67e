import { AppError, Problem, UploadedDiskFile } from '@app/common';
import type { StaticSiteSettings } from '@app/database';

/** The extension of a file name (lower case, without the dot), '' when it has none. */
export function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** The upload's kind, or a 400 when it is neither a page nor an archive. */
export function siteUploadMode(upload: UploadedDiskFile): StaticSiteSettings['mode'] {
  const extension = extensionOf(upload.originalName);
  if (extension === 'html' || extension === 'htm') return 'html';
  if (extension === 'zip') return 'zip';
  throw new AppError('validation_failed', 'file must be a .html page or a .zip archive.', 'file');
}

/** `file` belongs to static links: required to create one, optional to update one. */
export function checkSiteUpload(
  type: string,
  upload: UploadedDiskFile | undefined,
  creating: boolean,
): Problem[] {
  if (type !== 'static') {
    return upload ? [{ title: 'file is only for links of type static.', field: 'file' }] : [];
  }
  if (!upload) {
    return creating ? [{ title: 'file is required.', field: 'file' }] : [];
  }
  try {
    siteUploadMode(upload);
    return [];
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return [...error.problems];
  }
}
