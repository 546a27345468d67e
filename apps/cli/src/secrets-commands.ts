import { AppError, formatDateTime } from '@app/common';
import { APP_CONFIG, type AppConfig, decodeSecretsKey, resolveSecretsKey } from '@app/config';
import { SealedSecretsRepository } from '@app/database';
import { rotateSecretsKey } from '@app/notifications';
import { Command, required } from './command';

/** How many unreadable secrets a failed rotation names; the count is always given. */
const NAMED = 20;

/** The secrets key (docs/notification-handlers.md, "The secrets key"). */
export const SECRETS_COMMANDS: Record<string, Command> = {
  'secrets:rotate': {
    usage:
      'secrets:rotate --from-key OLD_KEY   (re-encrypts every stored secret under the current key: SECRETS_KEY, else $DATA_DIR/secrets.key)',
    options: { 'from-key': { type: 'string' } },
    async run(app, options) {
      const from = decodeSecretsKey(required(options, 'from-key'));
      if (!from) {
        throw new AppError(
          'validation_failed',
          '--from-key must be 32 bytes as 64 hex digits or base64, as SECRETS_KEY or the secrets.key file holds it.',
          'from-key',
        );
      }
      // The same resolution as the server's, so that it starts with the key rotated to.
      const { key } = resolveSecretsKey(app.get<AppConfig>(APP_CONFIG));
      const now = new Date();
      const result = await rotateSecretsKey(app.get(SealedSecretsRepository), from, key, now);
      if (result.unreadable.length > 0) {
        const named = result.unreadable.slice(0, NAMED).map((s) => `${s.table} ${s.id}`);
        const more = result.unreadable.length - named.length;
        throw new AppError(
          'validation_failed',
          `--from-key does not open ${result.unreadable.length} stored secret(s), nor does the current key: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}. Nothing was changed.`,
          'from-key',
        );
      }
      return {
        reencrypted: result.resealed,
        unchanged: result.unchanged,
        check_stored: formatDateTime(now),
      };
    },
  },
};
