/** The name at which the owner publishes a domain's verification TXT record. */
export function verificationName(host: string): string {
  return `_linkdock.${host}`;
}

/** The TXT value that proves a domain's owner: its verification token. */
export function verificationValue(token: string): string {
  return `linkdock-verify=${token}`;
}

/** Two tries per server, from 2.5 s each: a dead server fails the request within seconds. */
export const DNS_TIMEOUT_MS = 2_500;
export const DNS_TRIES = 2;
