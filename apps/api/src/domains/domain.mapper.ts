import { ApiProperty } from '@nestjs/swagger';
import { DomainEntity } from '@app/database';
import { domainPayload } from '@app/notifications';

/** The DNS record that proves control of the host; publishing it and verifying enables the domain. */
export class DomainVerification {
  @ApiProperty({ example: 'TXT' }) type!: 'TXT';
  @ApiProperty({ example: '_linkdock.links.example.com' }) name!: string;
  @ApiProperty({ example: 'linkdock-verify=0f1e2d3c4b5a69788796a5b4c3d2e1f0' }) value!: string;
  @ApiProperty({ type: String, nullable: true, example: null }) verified_datetime!: string | null;
}

export class DomainResponse {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ example: 'https://', enum: ['https://', 'http://'] }) scheme!: string;
  @ApiProperty({ example: 'links.example.com' }) host!: string;
  @ApiProperty({ example: '' }) custom_index_url!: string;
  @ApiProperty({ example: '' }) custom_not_found_url!: string;
  @ApiProperty({ example: false }) is_enabled!: boolean;
  @ApiProperty({ type: DomainVerification }) verification!: DomainVerification;
  @ApiProperty({ type: String, nullable: true, example: null }) last_datetime!: string | null;
  @ApiProperty({ example: '2026-11-21 10:00:00' }) datetime!: string;
}

export function toDomainResponse(domain: DomainEntity): DomainResponse {
  return domainPayload(domain);
}

export class TlsCheckResponse {
  @ApiProperty({ example: 'links.example.com' }) domain!: string;
}
