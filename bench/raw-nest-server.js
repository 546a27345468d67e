// The framework's own ceiling in bench:api: a bare NestJS 11 app on @nestjs/platform-express (the
// stack Linkdock is built on) with the same routes and bodies as raw-express-server.js, answering
// from memory: Nest's router, parameter decorators and JSON replies, and nothing else (no
// database, no guards, pipes, interceptors or logging). What Linkdock adds to a request is the
// difference between it and this app; what Nest adds to express is the difference between this
// app and the bare express one.
'use strict';
require('reflect-metadata');
const {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  HttpException,
  Module,
  Post,
  Query,
} = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { rows, user } = require('./baseline-bodies');

let next = 100;

function authorize(authorization) {
  if (!/^Bearer \S+$/.test(authorization ?? '')) {
    throw new HttpException(
      { errors: [{ status: 401, title: 'Unauthorized', code: 'unauthorized' }] },
      401,
    );
  }
}

function required(body, field) {
  if (typeof body?.[field] !== 'string') {
    throw new HttpException({ errors: [{ status: 400, title: `${field} is required.` }] }, 400);
  }
}

class BenchController {
  health() {
    return { status: 'ok', info: { database: { status: 'up' } } };
  }

  user(authorization) {
    authorize(authorization);
    return { data: user };
  }

  links(authorization, perPageText) {
    authorize(authorization);
    const perPage = Number(perPageText ?? 25);
    const self = `/v1/links/?results_per_page=${perPage}`;
    return {
      data: rows.slice(0, perPage),
      meta: { page: 1, results_per_page: perPage, total: 25, total_results: 25, total_pages: 1 },
      links: { first: self, last: self, next: null, prev: null, self },
    };
  }

  createLink(authorization, body) {
    authorize(authorization);
    required(body, 'location_url');
    return { data: { id: (next += 1) } };
  }

  createQrCode(authorization, body) {
    authorize(authorization);
    required(body, 'name');
    return { data: { id: (next += 1) } };
  }
}

// The decorators a TypeScript controller would carry, applied by hand (this file is plain JS).
function route(method, decorators, params = []) {
  const descriptor = Object.getOwnPropertyDescriptor(BenchController.prototype, method);
  params.forEach((param, index) => param(BenchController.prototype, method, index));
  for (const decorate of decorators) decorate(BenchController.prototype, method, descriptor);
  Reflect.defineMetadata(
    'design:paramtypes',
    params.map(() => Object),
    BenchController.prototype,
    method,
  );
}
route('health', [Get('health')]);
route('user', [Get('v1/user')], [Headers('authorization')]);
route('links', [Get('v1/links')], [Headers('authorization'), Query('results_per_page')]);
route('createLink', [Post('v1/links'), HttpCode(201)], [Headers('authorization'), Body()]);
route('createQrCode', [Post('v1/qr-codes'), HttpCode(201)], [Headers('authorization'), Body()]);
Controller()(BenchController);

class BenchModule {}
Module({ controllers: [BenchController] })(BenchModule);

(async () => {
  const app = await NestFactory.create(BenchModule, { logger: false });
  app.getHttpAdapter().getInstance().disable('x-powered-by');
  await app.listen(Number(process.env.PORT), '127.0.0.1');
  process.send?.('ready');
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
})();
