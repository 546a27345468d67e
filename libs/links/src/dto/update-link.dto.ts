import { OmitType, PartialType } from '@nestjs/swagger';
import { CreateLinkDto } from './create-link.dto';

/**
 * Partial update: a field that is absent keeps its value. The type of a link cannot change. For a
 * walink, `location_url` may be a wa.me (or api.whatsapp.com/send) URL, read as number and message.
 */
export class UpdateLinkDto extends PartialType(OmitType(CreateLinkDto, ['type'] as const)) {}
