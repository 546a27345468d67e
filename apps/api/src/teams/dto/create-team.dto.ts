import { ApiProperty } from '@nestjs/swagger';
import { Required, Trim } from '@app/common';
import { IsString, MaxLength } from 'class-validator';

export class CreateTeamDto {
  @ApiProperty({ maxLength: 64, example: 'Example team' })
  @Trim()
  @Required()
  @IsString()
  @MaxLength(64)
  name!: string;
}
