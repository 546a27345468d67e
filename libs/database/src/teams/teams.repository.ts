import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Db } from '../engine/db';
import { OwnedRepository } from '../owned.repository';
import { TeamEntity } from './team.entity';

/** Teams of their owner. Deleting a team removes its memberships (FK ON DELETE CASCADE). */
@Injectable()
export class TeamsRepository extends OwnedRepository<TeamEntity> {
  constructor(@InjectRepository(TeamEntity) repo: Repository<TeamEntity>, db: Db) {
    super(repo, db);
  }
}
