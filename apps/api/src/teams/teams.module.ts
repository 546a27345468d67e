import { Module } from '@nestjs/common';
import { AccountsModule } from '@app/auth';
import { NotificationsModule } from '@app/notifications';
import { InvitationsController } from './invitations.controller';
import { InvitationsService } from './invitations.service';
import { TeamMembersController } from './team-members.controller';
import { TeamMembersService } from './team-members.service';
import { TeamsController } from './teams.controller';
import { TeamsService } from './teams.service';

@Module({
  imports: [AccountsModule, NotificationsModule],
  controllers: [TeamsController, TeamMembersController, InvitationsController],
  providers: [TeamsService, TeamMembersService, InvitationsService],
})
export class TeamsModule {}
