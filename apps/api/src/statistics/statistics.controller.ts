import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, TeamAccess } from '@app/auth';
import { ApiErrors, ApiIdParam, ApiListResponse, IdParam } from '@app/common';
import { StatisticsQuery } from './dto/statistics.query';
import { StatisticsRowResponse } from './statistics.mapper';
import { StatisticsService } from './statistics.service';

const TYPES_DESCRIPTION = `type=overview (default): {pageviews, visitors, formatted_date}, one row per period of the range, zero-filled, all on one page.
Breakdowns, most pageviews first, paginated: referrer_host, referrer_path (needs referrer_host), continent_code, country_code, city_name (optional country_code; rows carry country_code, country_name, city_name), os_name, browser_name, device_type, browser_language, utm_source, utm_medium (needs utm_source), utm_campaign (needs utm_source and utm_medium): {<type>: value or null, pageviews}.
Bots, link-preview fetchers, scripts (curl is one) and HEAD requests count in none of these: type=bots gives {bot: family, pageviews}, most first (Slackbot, Twitterbot, facebookexternalhit, WhatsApp, Googlebot, curl, python-requests, ..., HEAD, other).
type=qr_codes: {qr_code_id, pageviews}, the visits that came through a QR code's scan marker (they count in pageviews too).
type=hour: {hour: "HH:00 - HH:00", pageviews} for the 24 hours of the day.
Periods and hours are in the time zone (default the account's); breakdown days are the account's days when the visits were counted.`;

@ApiTags('statistics')
@ApiErrors(401, 429)
@Controller('statistics')
export class StatisticsController {
  constructor(private readonly statistics: StatisticsService) {}

  @Get()
  @TeamAccess('read')
  @ApiOperation({
    summary: 'Statistics of the whole account, or of one link or project',
    description: TYPES_DESCRIPTION,
  })
  @ApiListResponse(StatisticsRowResponse)
  @ApiErrors(400, 404)
  account(@CurrentActor() actor: Actor, @Query() query: StatisticsQuery) {
    return this.statistics.read(actor, null, query);
  }

  @Get(':id')
  @TeamAccess('read')
  @ApiOperation({ summary: 'Statistics of one link', description: TYPES_DESCRIPTION })
  @ApiIdParam('Link id')
  @ApiListResponse(StatisticsRowResponse)
  @ApiErrors(400, 404)
  link(
    @CurrentActor() actor: Actor,
    @IdParam('link_not_found', 'link') id: number,
    @Query() query: StatisticsQuery,
  ) {
    return this.statistics.read(actor, id, query);
  }
}
