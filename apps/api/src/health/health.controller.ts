import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { SkipThrottle } from '@nestjs/throttler';
import type { Response } from 'express';
import { Public } from '@app/auth';
import { RawResponse } from '@app/common';
import { RedisHealthIndicator } from './redis.health';

/** `GET /health`: 200 when the database (and Redis, when configured) answer, 503 otherwise. */
/** One checked dependency, as @nestjs/terminus reports it. */
const INDICATORS = {
  type: 'object',
  description: 'By dependency: `database`, and `redis` when REDIS_URL is set.',
  additionalProperties: {
    type: 'object',
    required: ['status'],
    properties: {
      status: { type: 'string', enum: ['up', 'down'] },
      message: { type: 'string', description: 'Why it is down.' },
    },
  },
};

function healthBody(status: 'ok' | 'error') {
  return {
    type: 'object',
    required: ['status', 'info', 'error', 'details'],
    properties: {
      status: { type: 'string', enum: [status] },
      info: { ...INDICATORS, description: 'The dependencies that are up.' },
      error: { ...INDICATORS, description: 'The dependencies that are down.' },
      details: { ...INDICATORS, description: 'Every dependency checked.' },
    },
  };
}

@ApiTags('operations')
@Public()
@SkipThrottle()
@RawResponse()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
  ) {}

  @Get()
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({
    summary:
      'Whether the database (and Redis, when configured) answer; no API key, not rate-limited',
    description: 'Outside /v1 and without the `data` envelope: the @nestjs/terminus report.',
    security: [],
  })
  @ApiResponse({ status: 200, description: 'Every dependency is up.', schema: healthBody('ok') })
  @ApiResponse({ status: 503, description: 'A dependency is down.', schema: healthBody('error') })
  async check(@Res({ passthrough: true }) res: Response): Promise<unknown> {
    try {
      return await this.health.check([
        () => this.database.pingCheck('database', { timeout: 1500 }),
        ...(this.redis.configured ? [() => this.redis.check('redis')] : []),
      ]);
    } catch (error) {
      if (error instanceof ServiceUnavailableException) {
        res.status(503);
        return error.getResponse();
      }
      throw error;
    }
  }
}
