/**
 * Events one context raises and another listens to (@nestjs/event-emitter), so that contexts do not
 * import each other. The visitor edge listens to these to drop cached entries.
 */
export const LINK_CHANGED = 'link.changed';
export const DOMAIN_CHANGED = 'domain.changed';

/** A link was created, updated or deleted. `previous` is its address before an update moved it. */
export interface LinkChangedEvent {
  linkId: number;
  domainId: number;
  alias: string;
  previous?: { domainId: number; alias: string };
}

/** A domain was created, updated, verified, disabled or deleted (with its links). */
export interface DomainChangedEvent {
  domainId: number;
  host: string;
  previousHost?: string;
}
