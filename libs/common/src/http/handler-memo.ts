import type { ExecutionContext, Type } from '@nestjs/common';

/**
 * What a route's decorators say, read with the Reflector once per handler instead of on every
 * request. Keyed by class and handler: a method a base class gives two controllers reads each
 * one's class metadata.
 */
export class HandlerMemo<T> {
  private readonly byClass = new WeakMap<object, WeakMap<object, T>>();

  constructor(private readonly read: (targets: [() => void, Type]) => T) {}

  of(context: ExecutionContext): T {
    const handler = context.getHandler() as () => void;
    const cls = context.getClass();
    let handlers = this.byClass.get(cls);
    if (!handlers) {
      handlers = new WeakMap();
      this.byClass.set(cls, handlers);
    }
    let value = handlers.get(handler);
    if (value === undefined) {
      value = this.read([handler, cls]);
      handlers.set(handler, value);
    }
    return value;
  }
}
