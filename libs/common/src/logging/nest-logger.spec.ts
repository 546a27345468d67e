import { NestLogger } from './nest-logger';

describe(NestLogger.name, () => {
  const inner = () => ({
    log: jest.fn(),
    error: jest.fn(),
    warn: jest.fn(),
    debug: jest.fn(),
    verbose: jest.fn(),
    fatal: jest.fn(),
  });

  it("writes Nest's start-up lines at debug and every other line at its own level", () => {
    const to = inner();
    const logger = new NestLogger(to);
    logger.log('Mapped {/v1/links, GET} route', 'RouterExplorer');
    logger.log('LinksController {/v1/links}:', 'RoutesResolver');
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('Starting Nest application...', 'NestFactory');
    logger.log('Nest application successfully started', 'NestApplication');
    logger.log('Applied migrations: Init', 'Linkdock');
    logger.warn('Redis is unreachable', 'Redis');
    logger.error('boom', 'stack', 'LinksService');
    logger.verbose('details', 'Links');
    logger.fatal('gone', 'Links');
    expect(to.debug.mock.calls).toEqual([
      ['Mapped {/v1/links, GET} route', 'RouterExplorer'],
      ['LinksController {/v1/links}:', 'RoutesResolver'],
      ['AppModule dependencies initialized', 'InstanceLoader'],
      ['Starting Nest application...', 'NestFactory'],
      ['Nest application successfully started', 'NestApplication'],
    ]);
    expect({
      log: to.log.mock.calls,
      warn: to.warn.mock.calls,
      error: to.error.mock.calls,
      verbose: to.verbose.mock.calls,
      fatal: to.fatal.mock.calls,
    }).toEqual({
      log: [['Applied migrations: Init', 'Linkdock']],
      warn: [['Redis is unreachable', 'Redis']],
      error: [['boom', 'stack', 'LinksService']],
      verbose: [['details', 'Links']],
      fatal: [['gone', 'Links']],
    });
  });

  it("writes Nest's line for a failed listen at debug (the entry point reports it) and other errors as errors", () => {
    const to = inner();
    const logger = new NestLogger(to);
    logger.error(
      'Error: listen EADDRINUSE: address already in use 0.0.0.0:3000',
      'NestApplication',
    );
    logger.error('Error: something else', 'NestApplication');
    expect({ debug: to.debug.mock.calls, error: to.error.mock.calls }).toEqual({
      debug: [['Error: listen EADDRINUSE: address already in use 0.0.0.0:3000', 'NestApplication']],
      error: [['Error: something else', 'NestApplication']],
    });
  });
});
