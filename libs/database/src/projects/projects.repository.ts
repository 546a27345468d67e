import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Db } from '../engine/db';
import { OwnedRepository } from '../owned.repository';
import { ProjectEntity } from './project.entity';

@Injectable()
export class ProjectsRepository extends OwnedRepository<ProjectEntity> {
  constructor(@InjectRepository(ProjectEntity) repo: Repository<ProjectEntity>, db: Db) {
    super(repo, db);
  }
}
