import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { Required, Trim } from '@app/common';

export class CreateTeamDto {
  @ApiProperty({ maxLength: 64, example: 'Example team' })
  @Trim()
  @Required()
  @IsString()
  @MaxLength(64)
  name!: string;
}
