import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * An optional content field of a QR code: taken exactly as sent, never trimmed. What a code
 * carries is what the user asked for (a Wi-Fi password ` 1234567` is not `1234567`); a value its
 * standard cannot carry is refused by the type's encoder, naming the field and the rule.
 */
export function ContentText(maxLength: number): PropertyDecorator {
  // applyDecorators applies bottom-up: the same order of rules as the stacked form.
  return applyDecorators(
    MaxLength(maxLength),
    IsString(),
    IsOptional(),
    ApiPropertyOptional({
      maxLength,
      description: 'Never trimmed: white space around it is part of the value',
    }),
  );
}
