import { PartialType } from '@nestjs/swagger';
import { CreateNotificationHandlerDto } from './create-notification-handler.dto';

/** Partial update: a field that is absent keeps its value. */
export class UpdateNotificationHandlerDto extends PartialType(CreateNotificationHandlerDto) {}
