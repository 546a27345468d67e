import { Module } from '@nestjs/common';
import { AccountsModule } from '@app/auth';
import { NotificationsModule } from '@app/notifications';
import { TeamMembersController } from './team-members.controller';
import { TeamMembersService } from './team-members.service';
import { TeamsMemberController } from './teams-member.controller';
import { TeamsMemberService } from './teams-member.service';
import { TeamsController } from './teams.controller';
import { TeamsService } from './teams.service';

@Module({
  imports: [AccountsModule, NotificationsModule],
  controllers: [TeamsController, TeamMembersController, TeamsMemberController],
  providers: [TeamsService, TeamMembersService, TeamsMemberService],
  exports: [TeamsService, TeamMembersService, TeamsMemberService],
})
export class TeamsModule {}
