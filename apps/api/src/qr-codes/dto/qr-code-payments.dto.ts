import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { CRYPTO_COINS, PAYPAL_TYPES } from '@app/qr';
import { ContentText } from './content-text';
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

  @ContentText(128)
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

  @ContentText(320)
  paypal_email?: string;

  @ContentText(256)
  paypal_title?: string;

  @ContentText(3)
  paypal_currency?: string;

  @ContentText(1024)
  paypal_thank_you_url?: string;

  @ContentText(1024)
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

  @ContentText(64)
  upi_payee_id?: string;

  @ContentText(128)
  upi_payee_name?: string;

  @ContentText(3)
  upi_currency?: string;

  @ContentText(35)
  upi_transaction_id?: string;

  @ContentText(80)
  upi_transaction_note?: string;

  @ContentText(35)
  upi_transaction_reference?: string;

  @ContentText(256)
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

  @ContentText(34)
  epc_iban?: string;

  @ContentText(70)
  epc_payee_name?: string;

  @ContentText(3)
  epc_currency?: string;

  @ContentText(11)
  epc_bic?: string;

  @ContentText(35)
  epc_remittance_reference?: string;

  @ContentText(140)
  epc_remittance_text?: string;

  @ContentText(70)
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

  @ContentText(64)
  pix_payee_key?: string;

  @ContentText(99)
  pix_payee_name?: string;

  @ContentText(3)
  pix_currency?: string;

  @ContentText(99)
  pix_city?: string;

  @ContentText(99)
  pix_transaction_id?: string;

  @ContentText(128)
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
