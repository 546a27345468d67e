import { PartialType } from '@nestjs/swagger';
import { CreateProjectDto } from './create-project.dto';

/** Partial update: a field that is absent keeps its value. */
export class UpdateProjectDto extends PartialType(CreateProjectDto) {}
