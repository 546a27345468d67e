import { Injectable } from '@nestjs/common';
import { AppError } from '@app/common';
import { DnsTxtResolver, type TxtLookup } from '@app/common';
import { verificationName, verificationValue } from './host';

const SHOWN_RECORDS = 5;
const SHOWN_LENGTH = 100;

/** Checks that the verification TXT record of a host carries the domain's token. */
@Injectable()
export class DomainVerifier {
  constructor(private readonly resolver: DnsTxtResolver) {}

  /** Resolves when the record is published; otherwise a 400 saying what was expected and found. */
  async verify(host: string, token: string): Promise<void> {
    const name = verificationName(host);
    const expected = verificationValue(token);
    const lookup = await this.resolver.lookup(name);
    if ('found' in lookup && lookup.found.includes(expected)) {
      return;
    }
    throw new AppError(
      'domain_verification_failed',
      `Expected a TXT record at ${name} with the value ${expected}, but ${describe(lookup, name)}. ` +
        'Publish the record, wait for DNS to update, and verify again.',
    );
  }
}

function describe(lookup: TxtLookup, name: string): string {
  if ('found' in lookup) {
    const shown = lookup.found
      .slice(0, SHOWN_RECORDS)
      .map((value) =>
        JSON.stringify(value.length > SHOWN_LENGTH ? `${value.slice(0, SHOWN_LENGTH)}…` : value),
      );
    const more =
      lookup.found.length > SHOWN_RECORDS ? ` and ${lookup.found.length - SHOWN_RECORDS} more` : '';
    return `found only ${shown.join(', ')}${more}`;
  }
  switch (lookup.failure) {
    case 'nxdomain':
      return `the name ${name} does not exist (NXDOMAIN)`;
    case 'no_records':
      return `${name} has no TXT records`;
    case 'timeout':
      return 'the DNS query timed out';
    case 'error':
      return `the DNS query failed (${lookup.code})`;
  }
}
