import type { ApiKeyScope } from '@app/database';

/** Who is calling, resolved from the API key by the global guard. */
export interface Actor {
  userId: number;
  apiKeyId: number;
  isAdmin: boolean;
  /**
   * The workspace the request acts in. Repositories always receive this, never userId: it is the
   * caller's own id, or a team owner's id when the request carries team context.
   */
  ownerId: number;
  /** What the key may do; absent for actors that are no key (the command line): `full`. */
  scope?: ApiKeyScope;
  /** The team whose context the request acts in (X-Team-Id), when it does. */
  teamId?: number;
}
