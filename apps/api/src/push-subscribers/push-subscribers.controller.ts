import { Body, Controller, Delete, Get, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, TeamAccess } from '@app/auth';
import {
  ApiDataResponse,
  ApiErrors,
  ApiIdParam,
  ApiIdResponse,
  ApiListResponse,
  IdParam,
  Listing,
  ListParams,
  type ListQuery,
} from '@app/common';
import { CreatePushSubscriberDto } from './dto/create-push-subscriber.dto';
import { PushSubscriberResponse, VapidPublicKeyResponse } from './push-subscriber.mapper';
import { PUSH_SUBSCRIBERS_LIST } from './push-subscribers.list';
import { PushSubscribersService } from './push-subscribers.service';

const NOT_FOUND = 'push_subscriber_not_found';
const WHAT = 'push subscriber';

@ApiTags('push-subscribers')
@ApiErrors(401, 429)
@Controller('push-subscribers')
export class PushSubscribersController {
  constructor(private readonly subscribers: PushSubscribersService) {}

  @Get()
  @TeamAccess('read')
  @ApiOperation({ summary: 'List push subscribers' })
  @Listing(PUSH_SUBSCRIBERS_LIST)
  @ApiListResponse(PushSubscriberResponse)
  @ApiErrors(400)
  list(@CurrentActor() actor: Actor, @ListParams() query: ListQuery) {
    return this.subscribers.list(actor, query);
  }

  @Get('vapid-public-key')
  @TeamAccess('read')
  @ApiOperation({
    summary: 'The VAPID public key browsers subscribe with',
    description:
      'Pass it as applicationServerKey to pushManager.subscribe(), then POST the subscription here.',
  })
  @ApiDataResponse(VapidPublicKeyResponse)
  vapidPublicKey() {
    return this.subscribers.vapidPublicKey();
  }

  @Get(':id')
  @TeamAccess('read')
  @ApiOperation({ summary: 'Retrieve a push subscriber' })
  @ApiIdParam('Push subscriber id')
  @ApiDataResponse(PushSubscriberResponse)
  @ApiErrors(404)
  get(@CurrentActor() actor: Actor, @IdParam(NOT_FOUND, WHAT) id: number) {
    return this.subscribers.get(actor, id);
  }

  @Post()
  @TeamAccess('create')
  @ApiOperation({
    summary: 'Store a browser push subscription',
    description:
      'The body is the PushSubscription as JSON.stringify(subscription) gives it ({endpoint, keys: {p256dh, auth}}), with an optional name. The same endpoint again updates its keys.',
  })
  @ApiIdResponse(201)
  @ApiErrors(400)
  create(@CurrentActor() actor: Actor, @Body() dto: CreatePushSubscriberDto) {
    return this.subscribers.create(actor, dto);
  }

  @Delete(':id')
  @TeamAccess('delete')
  @ApiOperation({ summary: 'Delete a push subscriber' })
  @ApiIdParam('Push subscriber id')
  @ApiIdResponse()
  @ApiErrors(404)
  remove(@CurrentActor() actor: Actor, @IdParam(NOT_FOUND, WHAT) id: number) {
    return this.subscribers.remove(actor, id);
  }
}
