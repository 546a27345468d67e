import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { OptionalText } from '@app/common';
import { CRYPTO_COINS, PAYPAL_TYPES } from '@app/qr';
import { DecimalString } from './form-number';
import { oneOf } from './one-of';

/** Content of type crypto: a payment address, or `crypto` verbatim. */
export class QrCryptoFields {
  @ApiPropertyOptional({ enum: CRYPTO_COINS })
  @IsOptional()
  @IsIn(CRYPTO_COINS, oneOf(CRYPTO_COINS))
  crypto_coin?: (typeof CRYPTO_COINS)[number];

  @DecimalString('0', '1000000000000', '0.00000001')
  crypto_amount?: string;

  @OptionalText(128)
  crypto_address?: string;

  @ApiPropertyOptional({
    maxLength: 3000,
    description: 'The content as one string, used verbatim when no crypto_* field is sent',
  })
  @IsOptional()
  @IsString()
  @MaxLength(3000)
  crypto?: string;
}

/** Content of type paypal: a payment button, or `paypal` verbatim. */
export class QrPaypalFields {
  @ApiPropertyOptional({ enum: PAYPAL_TYPES })
  @IsOptional()
  @IsIn(PAYPAL_TYPES, oneOf(PAYPAL_TYPES))
  paypal_type?: (typeof PAYPAL_TYPES)[number];

  @DecimalString('0', '1000000000', '12.50')
  paypal_price?: string;

  @OptionalText(320)
  paypal_email?: string;

  @OptionalText(256)
  paypal_title?: string;

  @OptionalText(3)
  paypal_currency?: string;

  @OptionalText(1024)
  paypal_thank_you_url?: string;

  @OptionalText(1024)
  paypal_cancel_url?: string;

  @ApiPropertyOptional({
    maxLength: 3000,
    description: 'The content as one string, used verbatim when no paypal_* field is sent',
  })
  @IsOptional()
  @IsString()
  @MaxLength(3000)
  paypal?: string;
}

/** Content of type upi: an Indian UPI payment, or `upi` verbatim. */
export class QrUpiFields {
  @DecimalString('0', '1000000000', '99.00')
  upi_amount?: string;

  @OptionalText(64)
  upi_payee_id?: string;

  @OptionalText(128)
  upi_payee_name?: string;

  @OptionalText(3)
  upi_currency?: string;

  @OptionalText(35)
  upi_transaction_id?: string;

  @OptionalText(80)
  upi_transaction_note?: string;

  @OptionalText(35)
  upi_transaction_reference?: string;

  @OptionalText(256)
  upi_thank_you_url?: string;

  @ApiPropertyOptional({
    maxLength: 3000,
    description: 'The content as one string, used verbatim when no upi_* field is sent',
  })
  @IsOptional()
  @IsString()
  @MaxLength(3000)
  upi?: string;
}

/** Content of type epc: a SEPA credit transfer, or `epc` verbatim. */
export class QrEpcFields {
  @DecimalString('0.01', '999999999.99', '12.50')
  epc_amount?: string;

  @OptionalText(34)
  epc_iban?: string;

  @OptionalText(70)
  epc_payee_name?: string;

  @OptionalText(3)
  epc_currency?: string;

  @OptionalText(11)
  epc_bic?: string;

  @OptionalText(35)
  epc_remittance_reference?: string;

  @OptionalText(140)
  epc_remittance_text?: string;

  @OptionalText(70)
  information?: string;

  @ApiPropertyOptional({
    maxLength: 3000,
    description: 'The content as one string, used verbatim when no epc_* field is sent',
  })
  @IsOptional()
  @IsString()
  @MaxLength(3000)
  epc?: string;
}

/** Content of type pix: a Brazilian Pix payment, or `pix` verbatim. */
export class QrPixFields {
  @DecimalString('0', '1000000000', '10.00')
  pix_amount?: string;

  @OptionalText(64)
  pix_payee_key?: string;

  @OptionalText(99)
  pix_payee_name?: string;

  @OptionalText(3)
  pix_currency?: string;

  @OptionalText(99)
  pix_city?: string;

  @OptionalText(99)
  pix_transaction_id?: string;

  @OptionalText(128)
  pix_description?: string;

  @ApiPropertyOptional({
    maxLength: 3000,
    description: 'The content as one string, used verbatim when no pix_* field is sent',
  })
  @IsOptional()
  @IsString()
  @MaxLength(3000)
  pix?: string;
}
