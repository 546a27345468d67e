import { AddressInfo, createServer } from 'node:net';
import { Browser, chromium } from 'playwright-core';

/** A port nobody listens on now (a random one could be taken by another suite's socket). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The browser the suites drive: `CHROMIUM_PATH`, or Debian's chromium. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

/**
 * Headless Debian chromium (`CHROMIUM_PATH` to use another binary), quiet: no background
 * networking, updates or sync, so that tests see only the requests their pages make.
 */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}
