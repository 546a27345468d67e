import { DynamicModule, Global, Logger, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from './app-config';
import { resolveSecretsKey } from './secrets-key';

/** The 32-byte secrets key (SECRETS_KEY, or the generated key file), read once per app. */
export const SECRETS_KEY = Symbol('SECRETS_KEY');

/** Makes the validated configuration injectable as `@Inject(APP_CONFIG)`. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }],
      exports: [APP_CONFIG],
    };
  }
}

/**
 * The secrets key, resolved once for the whole app (the API; the CLI does not need it, so a
 * PostgreSQL setup can run migrations without SECRETS_KEY).
 */
@Global()
@Module({
  providers: [
    {
      provide: SECRETS_KEY,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): Buffer => {
        const { key, created } = resolveSecretsKey(config);
        if (created) {
          new Logger('Secrets').warn(
            `SECRETS_KEY is not set: generated a key into ${created} (mode 0600). Back it up with the database; set SECRETS_KEY to manage it yourself.`,
          );
        }
        return key;
      },
    },
  ],
  exports: [SECRETS_KEY],
})
export class SecretsModule {}
