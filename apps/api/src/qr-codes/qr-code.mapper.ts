import { ApiProperty } from '@nestjs/swagger';
import { formatDateTime } from '@app/common';
import { QrCodeEntity } from '@app/database';
import { QrFiles } from './qr-files';

export class QrCodeResponse {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ type: 'integer', nullable: true, example: null }) project_id!: number | null;
  @ApiProperty({ example: 'url' }) type!: string;
  @ApiProperty({ example: 'Menu' }) name!: string;
  @ApiProperty({
    example: 'https://links.example.com/uploads/qr-codes/4f1c…e2.svg',
    description: 'The SVG; the same URL ending in .png is the PNG',
  })
  qr_code!: string;
  @ApiProperty({ type: String, nullable: true }) qr_code_logo!: string | null;
  @ApiProperty({ type: String, nullable: true }) qr_code_background!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: {
      foreground_type: 'color',
      foreground_color: '#000000',
      size: 500,
      ecc: 'M',
      url: 'https://example.com',
    },
  })
  settings!: Record<string, unknown>;
  @ApiProperty({
    example: 'https://example.com',
    description:
      'What the code encodes. A code of type url whose url is one of your own short links (main or custom domain) encodes it with the scan marker ld_qr=<id in base 36> appended to its query; the visitor side removes the marker before anything else and counts the visit as a scan (docs/qr-codes.md).',
  })
  embedded_data!: string;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: null,
    description:
      'The link whose short URL the code encodes with the scan marker; null when the code carries none',
  })
  link_id!: number | null;
  @ApiProperty({
    example: 0,
    description:
      'Visits through the scan marker: counted in the link pageviews as every visit, and here (and under statistics type=qr_codes)',
  })
  scans!: number;
  @ApiProperty({
    description: 'Both decoders (zxing-wasm and jsQR) read embedded_data back from the PNG',
  })
  is_readable!: boolean;
  @ApiProperty({ type: String, nullable: true, example: null }) last_datetime!: string | null;
  @ApiProperty({ example: '2026-11-21 10:00:00' }) datetime!: string;
}

export function toQrCodeResponse(qr: QrCodeEntity, files: QrFiles): QrCodeResponse {
  return {
    id: qr.id,
    project_id: qr.project_id,
    type: qr.type,
    name: qr.name,
    qr_code: files.url(qr.qr_code) as string,
    qr_code_logo: files.url(qr.qr_code_logo),
    qr_code_background: files.url(qr.qr_code_background),
    settings: qr.settings,
    embedded_data: qr.embedded_data,
    link_id: qr.link_id,
    scans: qr.scans,
    is_readable: qr.is_readable,
    last_datetime: formatDateTime(qr.last_datetime),
    datetime: formatDateTime(qr.datetime),
  };
}
