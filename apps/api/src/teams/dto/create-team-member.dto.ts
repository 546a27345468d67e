import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, MaxLength } from 'class-validator';
import { EMAIL_MAX_LENGTH, IntRange, IsEmailAddress, Required } from '@app/common';
import type { AccessFlags } from '@app/database';
import { IsAccessInput } from './access-input';

export class CreateTeamMemberDto {
  @ApiProperty({ type: 'integer', example: 1, description: 'One of your teams.' })
  @Required()
  @IntRange(1, 2147483647)
  team_id!: number;

  @ApiProperty({
    maxLength: 254,
    example: 'hello@example.com',
    description: 'Who to invite; the address needs no account yet.',
  })
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().toLowerCase() : value,
  )
  @Required()
  @IsString()
  @MaxLength(EMAIL_MAX_LENGTH)
  @IsEmailAddress({ message: 'user_email must be a valid email address' })
  user_email!: string;

  @IsAccessInput()
  access?: AccessFlags;
}
