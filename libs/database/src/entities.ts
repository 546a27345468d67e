import { DomainEntity } from './domains/domain.entity';
import { LinkEntity } from './links/link.entity';
import { ProjectEntity } from './projects/project.entity';
import { TeamMemberEntity } from './teams/team-member.entity';
import { TeamEntity } from './teams/team.entity';
import { ApiKeyEntity } from './users/api-key.entity';
import { UserEntity } from './users/user.entity';
import { VisitEntity } from './visits/visit.entity';

/** Every entity, registered once for both dialects. */
export const ENTITIES = [
  UserEntity,
  ApiKeyEntity,
  ProjectEntity,
  DomainEntity,
  LinkEntity,
  VisitEntity,
  TeamEntity,
  TeamMemberEntity,
];
