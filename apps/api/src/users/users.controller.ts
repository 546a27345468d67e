import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, UsersService } from '@app/auth';
import { ApiDataResponse, ApiErrors } from '@app/common';
import { toUserResponse, UserResponse } from './user.mapper';

@ApiTags('user')
@ApiErrors(401, 403, 429)
@Controller('user')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({ summary: 'The account of the API key in use' })
  @ApiDataResponse(UserResponse)
  async me(@CurrentActor() actor: Actor): Promise<UserResponse> {
    return toUserResponse(await this.users.get(actor.userId));
  }
}
