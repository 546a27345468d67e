import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT, freePort, requireBuilt, startBuilt, stopStarted, waitFor } from '@app/testing';

/**
 * Values that reached a visitor's redirect and took the whole process down (issue 14), stored
 * through the API of the built server and then visited anonymously. Each value must be refused
 * with a 4xx, or be served safely, and the same process must keep serving afterwards. SQLite
 * only, like the boot test: what is tested is the process, not the database.
 */
const SAFE_VISIT = [301, 302, 307, 308, 200, 404];
const TIMEOUT_MS = 5_000;

interface Server {
  child: ChildProcess;
  pid: number;
  base: string;
  key: string;
  output: () => string;
}

/** Starts the server and waits for its banner (stopStarted stops it even if it never gets ready). */
async function startServer(dataDir: string): Promise<Server> {
  const port = await freePort();
  const started = startBuilt(BUILT.api, {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
  });
  const { child, output } = started;
  await waitFor(
    () => output().includes('Linkdock is listening') || child.exitCode !== null,
    20_000,
    output,
  );
  const key = /\b(ld_[A-Za-z0-9_-]{43})\b/.exec(output())?.[1];
  if (!key || child.pid === undefined || child.exitCode !== null) {
    throw new Error(`The server did not start with an admin key. Output:\n${output()}`);
  }
  return { child, pid: child.pid, base: `http://127.0.0.1:${port}`, key, output };
}

type Step =
  | { api: 'create'; body: Record<string, unknown> }
  | { api: 'update'; body: Record<string, unknown> }
  | { visit: number };

const DEST = 'https://example.com/';

/** Each value of issue 14, the way a client stores it, then the visits that served it. */
const CASES: [string, string, Step[]][] = [
  [
    'http_status_code null on create',
    'vc-null-create',
    [{ api: 'create', body: { location_url: DEST, http_status_code: null } }, { visit: 2 }],
  ],
  [
    'http_status_code null on update',
    'vc-null-update',
    [
      { api: 'create', body: { location_url: DEST } },
      { api: 'update', body: { http_status_code: null } },
      { visit: 2 },
    ],
  ],
  [
    'a destination with an emoji',
    'vc-emoji',
    [{ api: 'create', body: { location_url: 'https://example.com/😀' } }, { visit: 2 }],
  ],
  [
    'a destination with a fullwidth dot',
    'vc-fullwidth',
    [{ api: 'create', body: { location_url: 'https://example。com/' } }, { visit: 2 }],
  ],
  [
    'a destination with CR LF',
    'vc-crlf',
    [
      { api: 'create', body: { location_url: 'https://example.com/\r\nX-Injected: 1' } },
      { visit: 2 },
    ],
  ],
  [
    'a rotation target with an emoji',
    'vc-rotation',
    [
      {
        api: 'create',
        body: {
          location_url: DEST,
          targeting_type: 'rotation',
          targeting_rotation_key: ['1'],
          targeting_rotation_value: ['https://example.com/😀'],
        },
      },
      { visit: 2 },
    ],
  ],
  [
    'an expiration_url with an emoji once the clicks limit of 1 is reached',
    'vc-expiry',
    [
      {
        api: 'create',
        body: { location_url: DEST, clicks_limit: 1, expiration_url: 'https://example.com/😀' },
      },
      { visit: 2 },
    ],
  ],
  [
    'a utm_source with a lone surrogate',
    'vc-utm',
    [{ api: 'create', body: { location_url: DEST, utm_source: '\ud800x' } }, { visit: 2 }],
  ],
];

describe('Visitors of stored hostile values (the built server)', () => {
  let server: Server | undefined;
  let dataDir: string | undefined;

  beforeAll(async () => {
    requireBuilt(BUILT.api);
    dataDir = mkdtempSync(join(tmpdir(), 'linkdock-visitor-crash-'));
    server = await startServer(dataDir);
  }, 30_000);

  afterAll(async () => {
    await stopStarted();
    if (dataDir) {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  /** The server's last lines, for the failure message. */
  const tail = (s: Server): string => s.output().split('\n').slice(-15).join('\n');

  /** Set once the server stopped answering: later cases cannot tell anything. */
  let lostAfter: string | undefined;

  function running(): Server {
    if (!server) {
      throw new Error('The server did not start (see beforeAll).');
    }
    if (lostAfter !== undefined) {
      throw new Error(
        `The server (pid ${server.pid}) stopped answering in an earlier case, after ${lostAfter}. ` +
          `Server output (last lines):\n${tail(server)}`,
      );
    }
    return server;
  }

  /** The very process started in beforeAll still runs and answers /health with 200. */
  async function expectSameProcessHealthy(s: Server, after: string): Promise<void> {
    let health: number | string;
    try {
      health = (await fetch(`${s.base}/health`, { signal: AbortSignal.timeout(TIMEOUT_MS) }))
        .status;
    } catch (error) {
      health = `no answer (${String(error)})`;
    }
    const state = {
      after,
      pid: s.child.pid,
      exitCode: s.child.exitCode,
      signal: s.child.signalCode,
      health,
    };
    const expected = { after, pid: s.pid, exitCode: null, signal: null, health: 200 };
    if (JSON.stringify(state) !== JSON.stringify(expected)) {
      lostAfter = after;
      throw new Error(`${JSON.stringify(state)}\nServer output (last lines):\n${tail(s)}`);
    }
    expect(state).toEqual(expected);
  }

  async function api(s: Server, path: string, body: Record<string, unknown>) {
    const res = await fetch(`${s.base}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${s.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    return { status: res.status, body: (await res.json()) as { data?: { id: number } } };
  }

  it.each(CASES)(
    '%s: refused with a 4xx or served safely',
    async (_name, alias, steps) => {
      const s = running();
      let id: number | undefined;
      for (const step of steps) {
        if ('api' in step) {
          const path = step.api === 'create' ? '/v1/links' : `/v1/links/${String(id)}`;
          const res = await api(
            s,
            path,
            step.api === 'create' ? { url: alias, ...step.body } : step.body,
          );
          expect({ step: step.api, serverError: res.status >= 500 }).toEqual({
            step: step.api,
            serverError: false,
          });
          await expectSameProcessHealthy(s, `${step.api} ${JSON.stringify(step.body)}`);
          if (res.status >= 400) {
            // Refused at the API: nothing was stored for visitors to meet.
            return;
          }
          id = res.body.data?.id ?? id;
          continue;
        }
        for (let n = 1; n <= step.visit; n += 1) {
          let status: number | string;
          try {
            const res = await fetch(`${s.base}/${alias}`, {
              redirect: 'manual',
              headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0' },
              signal: AbortSignal.timeout(TIMEOUT_MS),
            });
            status = res.status;
          } catch (error) {
            status = `no answer (${String(error)})`;
          }
          await expectSameProcessHealthy(s, `visit ${n} of /${alias}`);
          expect({ visit: n, alias, safe: SAFE_VISIT.includes(status as number), status }).toEqual({
            visit: n,
            alias,
            safe: true,
            status,
          });
        }
      }
    },
    30_000,
  );
});
