import type { LinkAddress } from './visit-writer';

/*
 * Events the visit recorder raises (@nestjs/event-emitter) for the contexts that watch it, so that
 * none of them sets a field on it: the metrics time the flushes, the visitor cache tells the other
 * instances about clicks written.
 */

/** A flush ended (written or put back): how long it took. */
export const VISITS_FLUSHED = 'visits.flushed';
export interface VisitsFlushedEvent {
  seconds: number;
}

/** A batch was written with visits of these links, whose clicks limit was not reached before it. */
export const LIMITED_LINKS_WRITTEN = 'visits.limited-links-written';
export interface LimitedLinksWrittenEvent {
  links: LinkAddress[];
}
