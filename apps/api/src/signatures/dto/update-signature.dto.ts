import { PartialType } from '@nestjs/swagger';
import { CreateSignatureDto } from './create-signature.dto';

/** Partial update: a field that is absent keeps its value. */
export class UpdateSignatureDto extends PartialType(CreateSignatureDto) {}
