import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsHexColor, Required, Trim } from '@app/common';

export class CreateProjectDto {
  @ApiProperty({ maxLength: 64, example: 'Marketing' })
  @Trim()
  @Required()
  @IsString()
  @MaxLength(64)
  name!: string;

  @ApiPropertyOptional({ example: '#0e23cc', default: '#000000', pattern: '^#[0-9a-fA-F]{6}$' })
  @IsOptional()
  @IsHexColor()
  color?: string;
}
