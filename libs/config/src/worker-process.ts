import type { AppConfig } from './app-config';
import { ConfigError } from './load-config';

/**
 * What a worker process (apps/worker) asks of the configuration beyond loadConfig: WORKER=external,
 * since with `internal` the API processes run the jobs themselves.
 */
export function assertWorkerProcess(config: AppConfig): void {
  if (config.worker !== 'external') {
    throw new ConfigError([
      `WORKER must be external to run jobs in a worker process (got "${config.worker}": the API process runs them)`,
    ]);
  }
}
