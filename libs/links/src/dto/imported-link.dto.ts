import { IsString, Matches } from 'class-validator';
import { ANY_ALIAS_PATTERN } from '../alias';
import { CreateLinkDto } from './create-link.dto';

/**
 * A link as the command line's import checks it: the rules of POST /v1/links, except that the
 * alias it had may be shorter than the minimum for new aliases (CONTRACT, third wave: YOURLS
 * counts its keywords up from `1`, `z`, `10`).
 */
export class ImportedLinkDto extends CreateLinkDto {}

// Validators a subclass puts on a property replace the parent's of the same kind (class-validator
// keeps a class's own metadata over inherited metadata); `url` keeps its @IsOptional/@ValidateIf.
IsString()(ImportedLinkDto.prototype, 'url');
Matches(ANY_ALIAS_PATTERN, { message: 'url must be 1 to 64 letters, digits, - or _' })(
  ImportedLinkDto.prototype,
  'url',
);
