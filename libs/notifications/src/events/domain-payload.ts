import { formatDateTime, verificationName, verificationValue } from '@app/common';
import { DomainEntity } from '@app/database';

/** A domain as the API shows it (`GET /v1/domains/{id}`, and the `data` of domain events). */
export interface DomainPayload {
  id: number;
  scheme: string;
  host: string;
  custom_index_url: string;
  custom_not_found_url: string;
  is_enabled: boolean;
  verification: { type: 'TXT'; name: string; value: string; verified_datetime: string | null };
  last_datetime: string | null;
  datetime: string;
}

export function domainPayload(domain: DomainEntity): DomainPayload {
  return {
    id: domain.id,
    scheme: domain.scheme,
    host: domain.host,
    custom_index_url: domain.custom_index_url,
    custom_not_found_url: domain.custom_not_found_url,
    is_enabled: domain.is_enabled,
    verification: {
      type: 'TXT',
      name: verificationName(domain.host),
      value: verificationValue(domain.verification_token),
      verified_datetime: formatDateTime(domain.verified_datetime),
    },
    last_datetime: formatDateTime(domain.last_datetime),
    datetime: formatDateTime(domain.datetime),
  };
}
