import { Resolver } from 'node:dns/promises';

/** What a TXT lookup found: the records (chunks joined), or why there are none. */
export type TxtLookup =
  { found: string[] } | { failure: 'nxdomain' | 'no_records' | 'timeout' | 'error'; code: string };

export interface TxtResolverOptions {
  /** `ip[:port]` entries; null uses the system's resolvers. */
  servers: string[] | null;
  timeoutMs: number;
  tries: number;
}

/** TXT lookups through node's resolver, against configured servers (DNS_SERVERS) when given. */
export class DnsTxtResolver {
  private readonly resolver: Resolver;

  constructor(options: TxtResolverOptions) {
    this.resolver = new Resolver({ timeout: options.timeoutMs, tries: options.tries });
    if (options.servers) {
      this.resolver.setServers(options.servers);
    }
  }

  async lookup(name: string): Promise<TxtLookup> {
    try {
      const records = await this.resolver.resolveTxt(name);
      return { found: records.map((chunks) => chunks.join('')) };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return { failure: failureOf(code), code: typeof code === 'string' ? code : 'UNKNOWN' };
    }
  }
}

function failureOf(code: unknown): 'nxdomain' | 'no_records' | 'timeout' | 'error' {
  switch (code) {
    case 'ENOTFOUND':
      return 'nxdomain';
    case 'ENODATA':
      return 'no_records';
    case 'ETIMEOUT':
      return 'timeout';
    default:
      return 'error';
  }
}
