import { ApiProperty } from '@nestjs/swagger';
import { formatDateTime } from '@app/common';
import { ProjectEntity } from '@app/database';

export class ProjectResponse {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ example: 'Marketing' }) name!: string;
  @ApiProperty({ example: '#0e23cc' }) color!: string;
  @ApiProperty({ type: String, nullable: true, example: null }) last_datetime!: string | null;
  @ApiProperty({ example: '2026-11-21 10:00:00' }) datetime!: string;
}

export function toProjectResponse(project: ProjectEntity): ProjectResponse {
  return {
    id: project.id,
    name: project.name,
    color: project.color,
    last_datetime: formatDateTime(project.last_datetime),
    datetime: formatDateTime(project.datetime),
  };
}
