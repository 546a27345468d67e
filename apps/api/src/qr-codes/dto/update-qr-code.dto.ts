import { PartialType } from '@nestjs/swagger';
import { CreateQrCodeDto } from './create-qr-code.dto';

/** Partial update: a field that is absent keeps its value. */
export class UpdateQrCodeDto extends PartialType(CreateQrCodeDto) {}
