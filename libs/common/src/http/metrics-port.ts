import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';

/** Whether an Authorization header is `Bearer <token>` (compared in constant time). */
export function isMetricsBearer(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? '');
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** Writes the registry in the Prometheus text format (500 when a metric cannot be read). */
export async function writeMetrics(registry: Registry, res: ServerResponse): Promise<void> {
  try {
    const body = await registry.metrics();
    res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
    res.end(body);
  } catch {
    res.writeHead(500).end();
  }
}

/**
 * METRICS_PORT: a server that answers GET /metrics and nothing else (401 without the bearer
 * token when one is set). Resolves once it listens.
 */
export async function serveMetricsPort(
  registry: Registry,
  options: { port: number; host: string; token: string | null },
): Promise<Server> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    if (options.token !== null && !isMetricsBearer(req.headers.authorization, options.token)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Bearer realm="metrics"' }).end();
      return;
    }
    void writeMetrics(registry, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
