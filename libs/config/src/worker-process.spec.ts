import { ConfigError, loadConfig } from './load-config';
import { assertWorkerProcess } from './worker-process';

describe(assertWorkerProcess.name, () => {
  it('accepts WORKER=external', () => {
    expect(() => assertWorkerProcess(loadConfig({ WORKER: 'external' }))).not.toThrow();
  });

  it('rejects the default, internal, naming the variable', () => {
    const run = (): void => assertWorkerProcess(loadConfig({}));
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(
      'Invalid configuration:\n  - WORKER must be external to run jobs in a worker process (got "internal": the API process runs them)',
    );
  });
});
