import { ContentError, QrContentFields, required } from './fields';

/**
 * EPC069-12 "Quick Response Code" for SEPA credit transfers, version 002, UTF-8 (character set 1):
 * one element per line, LF separated, trailing empty elements left out.
 */
export function encodeEpc(f: QrContentFields): string {
  if (f.epc_currency && f.epc_currency !== 'EUR') {
    throw new ContentError('epc_currency', 'epc_currency must be EUR');
  }
  const iban = required(f, 'epc_iban').replace(/\s/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) {
    throw new ContentError('epc_iban', 'epc_iban must be an IBAN');
  }
  const amount = f.epc_amount;
  if (amount !== undefined && (amount < 0.01 || amount > 999999999.99)) {
    throw new ContentError('epc_amount', 'epc_amount must be from 0.01 to 999999999.99');
  }
  if (f.epc_remittance_reference && f.epc_remittance_text) {
    throw new ContentError(
      'epc_remittance_text',
      'epc_remittance_text and epc_remittance_reference cannot both be set (EPC069-12)',
    );
  }
  const lines = [
    'BCD',
    '002',
    '1',
    'SCT',
    (f.epc_bic ?? '').replace(/\s/g, '').toUpperCase(),
    required(f, 'epc_payee_name'),
    iban,
    amount !== undefined ? `EUR${amount.toFixed(2)}` : '',
    '',
    f.epc_remittance_reference ?? '',
    f.epc_remittance_text ?? '',
    f.information ?? '',
  ];
  while (lines[lines.length - 1] === '') {
    lines.pop();
  }
  return lines.join('\n');
}
