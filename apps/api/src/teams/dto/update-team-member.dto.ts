import type { AccessFlags } from '@app/database';
import { IsAccessInput } from './access-input';

/** The new complete set of flags; absent, the access stays as it is. */
export class UpdateTeamMemberDto {
  @IsAccessInput()
  access?: AccessFlags;
}
