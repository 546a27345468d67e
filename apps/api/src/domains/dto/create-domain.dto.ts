import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { Required } from '@app/common';
import {
  DOMAIN_SCHEMES,
  IsDomainHost,
  IsDomainScheme,
  IsOptionalHttpUrl,
  MAX_URL_LENGTH,
} from './domain-validators';

export class CreateDomainDto {
  @ApiProperty({
    maxLength: 253,
    example: 'links.example.com',
    description:
      'Host name. A pasted URL is reduced to its host, IDNs become punycode; IP addresses, ports and localhost are refused.',
  })
  @Required()
  @IsString()
  @IsDomainHost()
  host!: string;

  @ApiPropertyOptional({ enum: DOMAIN_SCHEMES, default: 'https://' })
  @IsOptional()
  @IsDomainScheme()
  scheme?: string;

  @ApiPropertyOptional({
    maxLength: MAX_URL_LENGTH,
    example: 'https://example.com/',
    description: 'Where the root of the domain redirects; empty for none.',
  })
  @IsOptional()
  @IsOptionalHttpUrl()
  custom_index_url?: string;

  @ApiPropertyOptional({
    maxLength: MAX_URL_LENGTH,
    example: '',
    description:
      'Where unknown or unavailable links of the domain redirect; empty for the 404 page.',
  })
  @IsOptional()
  @IsOptionalHttpUrl()
  custom_not_found_url?: string;
}
