import { ApiProperty } from '@nestjs/swagger';
import { IsFormBoolean, Required } from '@app/common';

/** The invitee's answer: 1 accepts (and binds the membership to the caller), 0 puts it back to invited. */
export class UpdateTeamsMemberDto {
  @ApiProperty({ enum: [0, 1], example: 1, description: '1 accept, 0 back to invited.' })
  @Required()
  @IsFormBoolean()
  status!: boolean;
}
