import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { OptionalReferenceId, Required, Trim } from '@app/common';
import { SIGNATURE_TEMPLATES, type SignatureTemplate } from '@app/signatures';
import { decorateSettingsFields } from './signature-fields';

/** `name`, `template`, `project_id`, and every `settings` key as a flat body field. */
export class CreateSignatureDto {
  @ApiProperty({ maxLength: 64, example: 'Work' })
  @Trim()
  @Required()
  @MaxLength(64, { message: 'name must be at most 64 characters' })
  @IsString({ message: 'name must be text' })
  name!: string;

  @ApiPropertyOptional({ enum: SIGNATURE_TEMPLATES, default: 'mars' })
  @IsOptional()
  @IsIn(SIGNATURE_TEMPLATES, {
    message: `template must be one of ${SIGNATURE_TEMPLATES.join(', ')}`,
  })
  template?: SignatureTemplate;

  @OptionalReferenceId('A project of yours; 0 or empty = none')
  project_id?: number;
}

decorateSettingsFields(CreateSignatureDto.prototype);
