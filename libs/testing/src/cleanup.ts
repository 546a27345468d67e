import type { Server } from 'node:http';

/**
 * What a suite opened (apps, servers, browsers), closed newest first by one `afterAll`. Each
 * resource is registered the moment it is open, so a `beforeAll` that fails part way still has
 * everything it opened closed (an open server keeps Jest from exiting), and nothing it did not
 * get to is touched.
 */
export class Cleanup {
  private readonly closers: Array<() => unknown> = [];

  /** Registers `resource.close()`, or `close(resource)`, and returns the resource. */
  add<T extends { close(): Promise<unknown> }>(resource: T): T;
  add<T>(resource: T, close: (resource: T) => unknown): T;
  add<T>(resource: T, close?: (resource: T) => unknown): T {
    this.closers.push(() =>
      close ? close(resource) : (resource as { close(): Promise<unknown> }).close(),
    );
    return resource;
  }

  /** Closes everything registered, newest first; one that fails does not keep the rest open. */
  async run(): Promise<void> {
    const errors: unknown[] = [];
    for (const close of this.closers.splice(0).reverse()) {
      try {
        await close();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) {
      throw errors[0];
    }
    if (errors.length > 1) {
      throw new AggregateError(errors, `${errors.length} resources failed to close`);
    }
  }
}

/** A Cleanup run by an `afterAll` of the describe block this is called in. */
export function closeAfterAll(): Cleanup {
  const cleanup = new Cleanup();
  afterAll(() => cleanup.run());
  return cleanup;
}

/**
 * Closes a node:http server (its `close` takes a callback rather than returning a promise), and
 * the connections it still has: a browser keeps idle ones open, and `close` waits for them all.
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
