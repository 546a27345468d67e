import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Registry } from 'prom-client';
import { isMetricsBearer, serveMetricsPort } from './metrics-port';

function fetchPath(port: number, path: string, auth?: string) {
  return new Promise<{ status: number; type?: string; body: string }>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, headers: auth ? { Authorization: auth } : {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }),
      );
    }).on('error', reject);
  });
}

describe(isMetricsBearer.name, () => {
  it('accepts only `Bearer <token>`', () => {
    expect(isMetricsBearer('Bearer secret-token', 'secret-token')).toBe(true);
    expect(isMetricsBearer('Bearer secret-tokeN', 'secret-token')).toBe(false);
    expect(isMetricsBearer('bearer secret-token', 'secret-token')).toBe(false);
    expect(isMetricsBearer('secret-token', 'secret-token')).toBe(false);
    expect(isMetricsBearer(undefined, 'secret-token')).toBe(false);
  });
});

describe(serveMetricsPort.name, () => {
  it('serves GET /metrics with the token only, and nothing else', async () => {
    const registry = new Registry();
    new Counter({ name: 'probe_total', help: 'A probe', registers: [registry] }).inc(3);
    const server = await serveMetricsPort(registry, {
      port: 0,
      host: '127.0.0.1',
      token: 'secret-token',
    });
    try {
      const { port } = server.address() as AddressInfo;
      expect(await fetchPath(port, '/metrics', 'Bearer secret-token')).toEqual({
        status: 200,
        type: 'text/plain; version=0.0.4; charset=utf-8',
        body: '# HELP probe_total A probe\n# TYPE probe_total counter\nprobe_total 3\n',
      });
      expect((await fetchPath(port, '/metrics')).status).toBe(401);
      expect((await fetchPath(port, '/metrics', 'Bearer wrong')).status).toBe(401);
      expect((await fetchPath(port, '/other', 'Bearer secret-token')).status).toBe(404);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});
