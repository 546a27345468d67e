import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { RESULTS_PER_PAGE } from '@app/common';
import { GRANULARITIES, STATISTICS_TYPES } from '../statistics-types';

/**
 * The query of both statistics routes, as received: every value a single string. Meaning, formats
 * and the parameters that depend on each other are checked by parseStatisticsQuery, which reports
 * every problem at once.
 */
export class StatisticsQuery {
  @ApiPropertyOptional({ description: 'Y-m-d, inclusive. Default: 29 days before end_date.' })
  @IsOptional()
  @IsString()
  start_date?: string;

  @ApiPropertyOptional({ description: 'Y-m-d, inclusive. Default: today.' })
  @IsOptional()
  @IsString()
  end_date?: string;

  @ApiPropertyOptional({ enum: STATISTICS_TYPES, default: 'overview' })
  @IsOptional()
  @IsString()
  type?: string;

  @ApiPropertyOptional({
    enum: GRANULARITIES,
    description:
      'overview only. Default: hour within one day, day up to 62 days, month up to two years, then year.',
  })
  @IsOptional()
  @IsString()
  granularity?: string;

  @ApiPropertyOptional({
    description: "IANA time zone of the periods and dates. Default: the account's.",
    example: 'Europe/Berlin',
  })
  @IsOptional()
  @IsString()
  timezone?: string;

  @ApiPropertyOptional({ description: 'Account route only: one link of yours.' })
  @IsOptional()
  @IsString()
  link_id?: string;

  @ApiPropertyOptional({ description: "Only this project's links." })
  @IsOptional()
  @IsString()
  project_id?: string;

  @ApiPropertyOptional({ description: 'Required for type=referrer_path.' })
  @IsOptional()
  @IsString()
  referrer_host?: string;

  @ApiPropertyOptional({ description: 'Optional narrowing for type=city_name.' })
  @IsOptional()
  @IsString()
  country_code?: string;

  @ApiPropertyOptional({ description: 'Required for type=utm_medium and utm_campaign.' })
  @IsOptional()
  @IsString()
  utm_source?: string;

  @ApiPropertyOptional({ description: 'Required for type=utm_campaign.' })
  @IsOptional()
  @IsString()
  utm_medium?: string;

  @ApiPropertyOptional({ type: 'integer', description: 'Default 1. Breakdowns only.' })
  @IsOptional()
  @IsString()
  page?: string;

  @ApiPropertyOptional({
    enum: RESULTS_PER_PAGE.map(String),
    description: 'Default 25. Breakdowns only; the overview has every period on one page.',
  })
  @IsOptional()
  @IsString()
  results_per_page?: string;
}
