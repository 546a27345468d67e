import type { ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';
import { fail } from './http';

describe(fail.name, () => {
  const response = (headersSent: boolean) => {
    const res = {
      headersSent,
      destroy: jest.fn(),
      writeHead: jest.fn(),
      end: jest.fn(),
      getHeaderNames: jest.fn(() => ['location']),
      removeHeader: jest.fn(),
    };
    return res as unknown as ServerResponse & typeof res;
  };
  let logged: jest.SpyInstance;

  beforeEach(() => {
    logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => logged.mockRestore());

  it.each(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE'])(
    'drops the connection of a client that went away (%s) without logging an error',
    (code) => {
      const res = response(true);
      fail(res, Object.assign(new Error('Premature close'), { code }));
      expect(res.destroy).toHaveBeenCalled();
      expect(logged).not.toHaveBeenCalled();
    },
  );

  it('logs other faults and answers 503 while it still can', () => {
    const res = response(false);
    fail(res, new Error('disk on fire'));
    expect(res.removeHeader).toHaveBeenCalledWith('location');
    expect(res.writeHead).toHaveBeenCalledWith(503, expect.anything());
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('disk on fire'));
  });

  it('never throws, even when the answer itself cannot be written', () => {
    const res = response(false);
    res.writeHead.mockImplementation(() => {
      throw new Error('write after end');
    });
    expect(() => fail(res, new Error('first fault'))).not.toThrow();
    expect(res.destroy).toHaveBeenCalled();
  });
});
