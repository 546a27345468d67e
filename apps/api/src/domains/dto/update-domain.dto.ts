import { ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsFormBoolean } from '@app/common';
import { CreateDomainDto } from './create-domain.dto';

/** Partial update: a field that is absent keeps its value. */
export class UpdateDomainDto extends PartialType(CreateDomainDto) {
  @ApiPropertyOptional({
    enum: [0, 1],
    description:
      '0 disables the domain; 1 enables it again, which needs a verified host that this request does not change.',
  })
  @IsOptional()
  @IsFormBoolean()
  is_enabled?: boolean;
}
