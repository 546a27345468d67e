import { Injectable } from '@nestjs/common';
import { Actor } from '@app/auth';
import { PlanLimits } from '@app/billing';
import { Clock, ListQuery, NotFoundError, Paginated } from '@app/common';
import { Db, ProjectEntity, ProjectsRepository } from '@app/database';
import { CreateProjectDto } from './dto/create-project.dto';
import { UpdateProjectDto } from './dto/update-project.dto';
import { ProjectResponse, toProjectResponse } from './project.mapper';

@Injectable()
export class ProjectsService {
  constructor(
    private readonly db: Db,
    private readonly limits: PlanLimits,
    private readonly projects: ProjectsRepository,
    private readonly clock: Clock,
  ) {}

  async list(actor: Actor, query: ListQuery): Promise<Paginated<ProjectResponse>> {
    return (await this.projects.listOwned(actor.ownerId, query)).map(toProjectResponse);
  }

  async get(actor: Actor, id: number): Promise<ProjectResponse> {
    return toProjectResponse(await this.findOwned(actor, id));
  }

  async create(actor: Actor, dto: CreateProjectDto): Promise<{ id: number }> {
    const id = await this.db.write(async () => {
      await this.limits.check(actor.ownerId, { projects: 1 });
      return this.projects.insert({
        user_id: actor.ownerId,
        name: dto.name,
        color: dto.color ?? '#000000',
        datetime: this.clock.now(),
        last_datetime: null,
      });
    });
    return { id };
  }

  async update(actor: Actor, id: number, dto: UpdateProjectDto): Promise<{ id: number }> {
    const project = await this.findOwned(actor, id);
    project.name = dto.name ?? project.name;
    project.color = dto.color ?? project.color;
    project.last_datetime = this.clock.now();
    await this.projects.save(project);
    return { id };
  }

  /** Resources that referenced the project keep existing with project_id null (FK ON DELETE SET NULL). */
  async remove(actor: Actor, id: number): Promise<{ id: number }> {
    if (!(await this.projects.deleteOwned(actor.ownerId, id))) {
      throw new NotFoundError('project_not_found', 'project');
    }
    return { id };
  }

  private async findOwned(actor: Actor, id: number): Promise<ProjectEntity> {
    const project = await this.projects.findOwned(actor.ownerId, id);
    if (!project) {
      throw new NotFoundError('project_not_found', 'project');
    }
    return project;
  }
}
