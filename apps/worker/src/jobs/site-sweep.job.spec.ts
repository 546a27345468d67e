import { Logger } from '@nestjs/common';
import type { LinksRepository } from '@app/database';
import type { SiteRef, SiteStorage, StoredSite } from '@app/storage';
import { SiteSweepJob, SWEEP_GRACE_MS } from './site-sweep.job';

const NOW = Date.parse('2026-03-31T12:00:00.000Z');
const OLD = new Date(NOW - SWEEP_GRACE_MS - 1);
const YOUNG = new Date(NOW - SWEEP_GRACE_MS + 60_000);

function sweeper(sites: StoredSite[], published: Record<string, string>, onRemove = () => {}) {
  const removed: string[] = [];
  const record = (kind: string) => (ref: SiteRef) => {
    removed.push(`${kind} ${ref.siteId}/${ref.version}`);
    onRemove();
    return Promise.resolve();
  };
  const storage = {
    listSites: () => Promise.resolve(sites),
    removeVersion: jest.fn(record('version')),
    removeDraft: jest.fn(record('draft')),
  };
  const links = {
    staticSettings: () =>
      Promise.resolve(
        Object.entries(published).map(([folder, version]) =>
          JSON.stringify({ static_site: { mode: 'zip', folder, version, files: [], bytes: 0 } }),
        ),
      ),
  };
  const job = new SiteSweepJob(
    storage as unknown as SiteStorage,
    links as unknown as LinksRepository,
  );
  return { job, removed };
}

describe(SiteSweepJob.name, () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('removes old versions and drafts no link points at, and keeps current and recent ones', async () => {
    const { job, removed } = sweeper(
      [
        {
          siteId: 'a',
          versions: [
            { version: 'a1', draft: false, modified: OLD },
            { version: 'a2', draft: false, modified: OLD },
            { version: 'a3', draft: false, modified: YOUNG },
            { version: 'a4', draft: true, modified: OLD },
            { version: 'a5', draft: true, modified: YOUNG },
          ],
        },
        { siteId: 'orphan', versions: [{ version: 'o1', draft: false, modified: OLD }] },
      ],
      { a: 'a2' },
    );

    expect(await job.sweep(NOW)).toBe(3);
    expect(removed).toEqual(['version a/a1', 'draft a/a4', 'version orphan/o1']);
    expect(Logger.prototype.log).toHaveBeenCalledWith('Removed 3 unused static-site versions');
  });

  it('stops between sites once its signal is aborted', async () => {
    const stop = new AbortController();
    const { job, removed } = sweeper(
      [
        { siteId: 'a', versions: [{ version: 'a1', draft: false, modified: OLD }] },
        { siteId: 'b', versions: [{ version: 'b1', draft: false, modified: OLD }] },
      ],
      {},
      () => stop.abort(),
    );

    expect(await job.sweep(NOW, stop.signal)).toBe(1);
    expect(removed).toEqual(['version a/a1']);
  });

  it('runs every six hours, the first time at start, and is never off', () => {
    const { job } = sweeper([], {});
    expect([job.name, job.firstDelayMs, job.everyMs, job.offBecause]).toEqual([
      'site-sweep',
      0,
      6 * 3_600_000,
      null,
    ]);
  });
});
