import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { SkipThrottle } from '@nestjs/throttler';
import type { Response } from 'express';
import { Public } from '@app/auth';
import { RawResponse } from '@app/common';
import { RedisHealthIndicator } from './redis.health';

/** `GET /health`: 200 when the database (and Redis, when configured) answer, 503 otherwise. */
@ApiExcludeController()
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
  @HealthCheck()
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
