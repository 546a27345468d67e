import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, TeamAccess } from '@app/auth';
import {
  ApiDataResponse,
  ApiErrors,
  ApiForm,
  ApiIdParam,
  ApiIdResponse,
  ApiListResponse,
  IdParam,
  Listing,
  ListParams,
  type ListQuery,
} from '@app/common';
import { CreateProjectDto } from './dto/create-project.dto';
import { UpdateProjectDto } from './dto/update-project.dto';
import { ProjectResponse } from './project.mapper';
import { PROJECTS_LIST } from './projects.list';
import { ProjectsService } from './projects.service';

@ApiTags('projects')
@ApiErrors(401, 429)
@Controller('projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Get()
  @TeamAccess('read')
  @ApiOperation({ summary: 'List projects' })
  @Listing(PROJECTS_LIST)
  @ApiListResponse(ProjectResponse)
  @ApiErrors(400)
  list(@CurrentActor() actor: Actor, @ListParams() query: ListQuery) {
    return this.projects.list(actor, query);
  }

  @Get(':id')
  @TeamAccess('read')
  @ApiOperation({ summary: 'Retrieve a project' })
  @ApiIdParam('Project id')
  @ApiDataResponse(ProjectResponse)
  @ApiErrors(404)
  get(@CurrentActor() actor: Actor, @IdParam('project_not_found', 'project') id: number) {
    return this.projects.get(actor, id);
  }

  @Post()
  @TeamAccess('create')
  @ApiOperation({ summary: 'Create a project' })
  @ApiForm()
  @ApiIdResponse(201)
  @ApiErrors(400)
  create(@CurrentActor() actor: Actor, @Body() dto: CreateProjectDto) {
    return this.projects.create(actor, dto);
  }

  @Post(':id')
  @TeamAccess('update')
  @HttpCode(200)
  @ApiOperation({ summary: 'Update a project' })
  @ApiIdParam('Project id')
  @ApiForm()
  @ApiIdResponse()
  @ApiErrors(400, 404)
  update(
    @CurrentActor() actor: Actor,
    @IdParam('project_not_found', 'project') id: number,
    @Body() dto: UpdateProjectDto,
  ) {
    return this.projects.update(actor, id, dto);
  }

  @Delete(':id')
  @TeamAccess('delete')
  @ApiOperation({ summary: 'Delete a project; its resources stay, with project_id null' })
  @ApiIdParam('Project id')
  @ApiIdResponse()
  @ApiErrors(404)
  remove(@CurrentActor() actor: Actor, @IdParam('project_not_found', 'project') id: number) {
    return this.projects.remove(actor, id);
  }
}
