import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { SingleBar } from 'cli-progress';
import { Actor, UsersService } from '@app/auth';
import { AppError, ListQuery } from '@app/common';
import { AccountLogsRepository, LinksRepository } from '@app/database';
import {
  DestinationChecks,
  EXPORT_FORMATS,
  LinksBulkService,
  LinksExportService,
  parseExportFormat,
} from '@app/links';
import { Command, CommandContext, Options, required, str } from '../command';
import { LinksImporter } from './links-importer';
import { IMPORT_SOURCES, ImportSource, readExport } from './sources';

/** The account a command acts for, as the API would see its owner. */
async function actorFor(users: UsersService, email: string): Promise<Actor> {
  const user = await users.getByEmail(email);
  return { userId: user.id, ownerId: user.id, apiKeyId: 0, isAdmin: user.is_admin };
}

/** An optional id option: a whole number, 0 meaning none. */
function idOption(options: Options, name: string): number {
  const value = str(options, name);
  if (value === undefined) {
    return 0;
  }
  if (!/^\d{1,10}$/.test(value) || Number(value) > 2_147_483_647) {
    throw new AppError('validation_failed', `--${name} must be a whole number.`, name);
  }
  return Number(value);
}

/** A bar with the rate and the time left, drawn only on a terminal. */
function progressBar(context: CommandContext, total: number): (done: number) => void {
  const stream = context.io.progress;
  if (stream === undefined || total === 0) {
    return () => undefined;
  }
  const bar = new SingleBar({
    stream,
    format:
      'Importing [{bar}] {percentage}% | {value}/{total} rows | {rate} rows/s | ETA {eta_formatted}',
    hideCursor: true,
    clearOnComplete: false,
    etaBuffer: 20,
  });
  const started = Date.now();
  bar.start(total, 0, { rate: 0 });
  return (done) => {
    const seconds = (Date.now() - started) / 1000;
    bar.update(done, { rate: seconds > 0 ? Math.round(done / seconds) : 0 });
    if (done >= total) {
      bar.stop();
    }
  };
}

export const LINK_COMMANDS: Record<string, Command> = {
  import: {
    usage: `import --email E --from ${IMPORT_SOURCES.join('|')} FILE [--domain-id N] [--project-id N] [--dry-run]`,
    options: {
      email: { type: 'string' },
      from: { type: 'string' },
      'domain-id': { type: 'string' },
      'project-id': { type: 'string' },
      'dry-run': { type: 'boolean' },
    },
    args: ['FILE'],
    async run(app, options, context) {
      const actor = await actorFor(app.get(UsersService), required(options, 'email'));
      const source = required(options, 'from');
      if (!(IMPORT_SOURCES as readonly string[]).includes(source)) {
        throw new AppError(
          'validation_failed',
          `--from must be one of ${IMPORT_SOURCES.join(', ')}.`,
          'from',
        );
      }
      const domainId = idOption(options, 'domain-id');
      const projectId = idOption(options, 'project-id');
      const bulk = app.get(LinksBulkService);
      const problems = await bulk.referenceProblems(actor, domainId, projectId);
      if (problems.length > 0) {
        throw new AppError(
          'validation_failed',
          problems.map((p) => ({ ...p, field: p.field?.replace('_', '-') })),
        );
      }
      const [file] = context.args;
      let content: string;
      try {
        content = await readFile(file, 'utf8');
      } catch (error) {
        throw new AppError(
          'validation_failed',
          `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}.`,
          'file',
        );
      }
      const rows = readExport(source as ImportSource, content);
      const importer = new LinksImporter(bulk, app.get(LinksRepository));
      // The account's one bulk create or import at a time, as POST /v1/links/bulk takes it.
      const summary = await bulk.exclusive(actor, () =>
        importer.run(
          actor,
          rows,
          {
            domainId,
            projectId: projectId === 0 ? null : projectId,
            dryRun: options['dry-run'] === true,
          },
          progressBar(context, rows.length),
        ),
      );
      if (!summary.dry_run) {
        await app.get(AccountLogsRepository).add(
          [
            {
              userId: actor.ownerId,
              type: 'links.imported',
              data: {
                source,
                file: basename(file),
                rows: summary.rows,
                created: summary.created,
                skipped: summary.skipped,
                failed: summary.failed.length,
              },
            },
          ],
          new Date(),
        );
      }
      return { source, file, ...summary };
    },
  },
  'export links': {
    usage: `export links --email E [--format ${EXPORT_FORMATS.join('|')}] [--output FILE] [--domain-id N] [--project-id N]   (without --output: the export on stdout, no summary)`,
    options: {
      email: { type: 'string' },
      format: { type: 'string' },
      output: { type: 'string' },
      'domain-id': { type: 'string' },
      'project-id': { type: 'string' },
    },
    async run(app, options, context) {
      const actor = await actorFor(app.get(UsersService), required(options, 'email'));
      const format = parseExportFormat(str(options, 'format'));
      const filters: ListQuery['filters'] = [
        ...(options['domain-id'] !== undefined
          ? [{ column: 'domain_id', value: idOption(options, 'domain-id') }]
          : []),
        ...(options['project-id'] !== undefined
          ? [{ column: 'project_id', value: idOption(options, 'project-id') }]
          : []),
      ];
      const query: ListQuery = {
        page: 1,
        resultsPerPage: 1000,
        search: null,
        order: { column: 'id', direction: 'ASC' },
        datetime: null,
        filters,
      };
      const document = await app.get(LinksExportService).open(actor, query, format);
      const output = str(options, 'output');
      if (output === undefined) {
        const { io } = context;
        for await (const chunk of document.chunks) {
          if (io.write) {
            await io.write(chunk);
          } else {
            io.out(chunk);
          }
        }
        return undefined;
      }
      const file = createWriteStream(output, { encoding: 'utf8' });
      try {
        await once(file, 'open');
      } catch (error) {
        throw new AppError(
          'validation_failed',
          `Cannot write ${output}: ${(error as NodeJS.ErrnoException).code ?? 'error'}.`,
          'output',
        );
      }
      for await (const chunk of document.chunks) {
        if (!file.write(chunk)) {
          await once(file, 'drain');
        }
      }
      file.end();
      await once(file, 'finish');
      return { format, file: output, exported: document.exported() };
    },
  },
  'links:check-destinations': {
    usage: 'links:check-destinations [--email E] [--link-id N]',
    options: { email: { type: 'string' }, 'link-id': { type: 'string' } },
    async run(app, options) {
      const email = str(options, 'email');
      const userId =
        email === undefined ? undefined : (await app.get(UsersService).getByEmail(email)).id;
      const linkId = idOption(options, 'link-id');
      // At once, ignoring the daily spacing; prints {checked, ok, broken}.
      return app.get(DestinationChecks).run({
        force: true,
        userId,
        linkId: linkId === 0 ? undefined : linkId,
      });
    },
  },
};
