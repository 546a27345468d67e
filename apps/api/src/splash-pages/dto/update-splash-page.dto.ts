import { PartialType } from '@nestjs/swagger';
import { CreateSplashPageDto } from './create-splash-page.dto';

/** Partial update: a field that is absent keeps its value; an empty text clears it. */
export class UpdateSplashPageDto extends PartialType(CreateSplashPageDto) {}
