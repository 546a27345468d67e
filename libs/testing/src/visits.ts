import type { NewVisit } from '@app/database';

/**
 * A visitor's visit of a link as the recorder hands it to the writer, with no referrer, UTM tags,
 * place, device or language, unique, and not a QR code's scan: for tests that write visits
 * themselves (VisitWriter), `values` overriding any column.
 */
export function newVisit(linkId: number, datetime: Date, values: Partial<NewVisit> = {}): NewVisit {
  return {
    link_id: linkId,
    datetime,
    referrer_host: null,
    referrer_path: null,
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
    continent_code: null,
    country_code: null,
    city_name: null,
    os_name: null,
    browser_name: null,
    device_type: null,
    browser_language: null,
    is_unique: true,
    visitor_hash: 'a'.repeat(32),
    bot: null,
    qr_code_id: null,
    ...values,
  };
}
