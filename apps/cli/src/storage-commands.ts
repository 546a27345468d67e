import { SingleBar } from 'cli-progress';
import { AppError } from '@app/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { LocalObjectStore, ObjectStore, S3ObjectStore, StorageMigration } from '@app/storage';
import { Command, CommandContext, required } from './command';

const DRIVERS = ['s3', 'local'] as const;

function s3Store(config: AppConfig): ObjectStore {
  if (config.storage.s3 === null) {
    throw new AppError(
      'validation_failed',
      'S3_BUCKET (and the other S3_* variables) must be set to copy to or from S3.',
      'to',
    );
  }
  return new S3ObjectStore(config.storage.s3);
}

function progressBar(context: CommandContext): (done: number, total: number) => void {
  const stream = context.io.progress;
  if (stream === undefined) {
    return () => undefined;
  }
  const bar = new SingleBar({
    stream,
    format: 'Copying [{bar}] {percentage}% | {value}/{total} objects | ETA {eta_formatted}',
    hideCursor: true,
    clearOnComplete: false,
  });
  let started = false;
  return (done, total) => {
    if (!started) {
      bar.start(total, done);
      started = true;
    }
    bar.update(done);
    if (done >= total) bar.stop();
  };
}

export const STORAGE_COMMANDS: Record<string, Command> = {
  'storage:migrate': {
    usage: 'storage:migrate --to s3|local [--dry-run]',
    options: { to: { type: 'string' }, 'dry-run': { type: 'boolean' } },
    run: async (app, options, context) => {
      const to = required(options, 'to');
      if (!DRIVERS.some((d) => d === to)) {
        throw new AppError('validation_failed', '--to must be s3 or local.', 'to');
      }
      const config = app.get<AppConfig>(APP_CONFIG);
      const dryRun = options['dry-run'] === true;
      const local = new LocalObjectStore(config.dataDir);
      const s3 = s3Store(config);
      try {
        const migration =
          to === 's3'
            ? new StorageMigration(local, s3, 'to-objects')
            : new StorageMigration(s3, local, 'to-disk');
        const summary = await migration.run(dryRun, progressBar(context));
        if (summary.failed.length > 0) {
          throw new AppError(
            'internal_error',
            `${summary.failed.length} objects did not read back with their size and SHA-256 (first: ${summary.failed[0]}); run the command again.`,
          );
        }
        return {
          to,
          dry_run: dryRun,
          objects: summary.objects,
          copied: summary.copied,
          skipped: summary.skipped,
          bytes: summary.bytes,
        };
      } finally {
        await s3.close();
      }
    },
  },
};
