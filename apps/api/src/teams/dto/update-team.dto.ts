import { PartialType } from '@nestjs/swagger';
import { CreateTeamDto } from './create-team.dto';

/** Partial update: an absent name keeps its value. */
export class UpdateTeamDto extends PartialType(CreateTeamDto) {}
