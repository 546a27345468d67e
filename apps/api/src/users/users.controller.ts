import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, UsersService } from '@app/auth';
import { PlansService } from '@app/billing';
import { ApiDataResponse, ApiErrors } from '@app/common';
import { toUserResponse, UserResponse } from './user.mapper';

@ApiTags('user')
@ApiErrors(401, 403, 429)
@Controller('user')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly plans: PlansService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'The account of the API key in use',
    description: "With its plan, the plan's limits, and what the account uses of each.",
  })
  @ApiDataResponse(UserResponse)
  async me(@CurrentActor() actor: Actor): Promise<UserResponse> {
    const user = await this.users.get(actor.userId);
    const plan = await this.plans.effectiveFor(user);
    return toUserResponse(user, plan, await this.plans.usage(user.id, plan.settings));
  }
}
