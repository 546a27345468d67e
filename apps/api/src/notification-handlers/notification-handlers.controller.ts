import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, TeamAccess } from '@app/auth';
import {
  ApiDataResponse,
  ApiErrors,
  ApiForm,
  ApiIdParam,
  ApiIdResponse,
  ApiListResponse,
  IdParam,
  Listing,
  ListParams,
  type ListQuery,
} from '@app/common';
import { DELIVERIES_LIST } from './deliveries.list';
import { DeliveriesService } from './deliveries.service';
import { DeliveryResponse } from './delivery.mapper';
import { CreateNotificationHandlerDto } from './dto/create-notification-handler.dto';
import { UpdateNotificationHandlerDto } from './dto/update-notification-handler.dto';
import {
  CreatedNotificationHandlerResponse,
  NotificationHandlerResponse,
  TestDeliveryResponse,
} from './notification-handler.mapper';
import { NOTIFICATION_HANDLERS_LIST } from './notification-handlers.list';
import { NotificationHandlersService } from './notification-handlers.service';

const NOT_FOUND = 'notification_handler_not_found';
const WHAT = 'notification handler';

@ApiTags('notification-handlers')
@ApiErrors(401, 429)
@Controller('notification-handlers')
export class NotificationHandlersController {
  constructor(
    private readonly handlers: NotificationHandlersService,
    private readonly deliveries: DeliveriesService,
  ) {}

  @Get()
  @TeamAccess('read')
  @ApiOperation({ summary: 'List notification handlers' })
  @Listing(NOTIFICATION_HANDLERS_LIST)
  @ApiListResponse(NotificationHandlerResponse)
  @ApiErrors(400)
  list(@CurrentActor() actor: Actor, @ListParams() query: ListQuery) {
    return this.handlers.list(actor, query);
  }

  @Get(':id')
  @TeamAccess('read')
  @ApiOperation({ summary: 'Retrieve a notification handler (secrets masked)' })
  @ApiIdParam('Notification handler id')
  @ApiDataResponse(NotificationHandlerResponse)
  @ApiErrors(404)
  get(@CurrentActor() actor: Actor, @IdParam(NOT_FOUND, WHAT) id: number) {
    return this.handlers.get(actor, id);
  }

  @Post()
  @TeamAccess('create')
  @ApiOperation({ summary: 'Create a notification handler' })
  @ApiForm()
  @ApiDataResponse(CreatedNotificationHandlerResponse, 201)
  @ApiErrors(400)
  create(@CurrentActor() actor: Actor, @Body() dto: CreateNotificationHandlerDto) {
    return this.handlers.create(actor, dto);
  }

  @Get(':id/deliveries')
  @TeamAccess('read')
  @ApiOperation({
    summary: 'List the deliveries of a notification handler',
    description:
      'Each event sent to this handler: status (pending, delivered, failed), attempts, the next attempt and the last answer. Retries follow about 1 min, 5 min, 30 min, 2 h, 6 h, 12 h and 24 h (docs/events.md).',
  })
  @ApiIdParam('Notification handler id')
  @Listing(DELIVERIES_LIST)
  @ApiListResponse(DeliveryResponse)
  @ApiErrors(400, 404)
  listDeliveries(
    @CurrentActor() actor: Actor,
    @IdParam(NOT_FOUND, WHAT) id: number,
    @ListParams() query: ListQuery,
  ) {
    return this.deliveries.list(actor, id, query);
  }

  @Post(':id/deliveries/:delivery_id/retry')
  @TeamAccess('update')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Retry a delivery now',
    description:
      'Makes the delivery due at once, whatever its status; it keeps its message id (webhook-id) and its attempt count.',
  })
  @ApiIdParam('Notification handler id')
  @ApiParam({ name: 'delivery_id', type: 'integer', description: 'Delivery id' })
  @ApiDataResponse(DeliveryResponse)
  @ApiErrors(404)
  retryDelivery(
    @CurrentActor() actor: Actor,
    @IdParam(NOT_FOUND, WHAT) id: number,
    @IdParam('delivery_not_found', 'delivery', 'delivery_id') deliveryId: number,
  ) {
    return this.deliveries.retry(actor, id, deliveryId);
  }

  @Post(':id/test')
  @TeamAccess('update')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a test message through the handler',
    description:
      'Always 200 with the outcome when a delivery was attempted (ok false and error when the target refused or could not be reached); 400 channel_unavailable when this installation cannot deliver this kind.',
  })
  @ApiIdParam('Notification handler id')
  @ApiDataResponse(TestDeliveryResponse)
  @ApiErrors(400, 404)
  test(@CurrentActor() actor: Actor, @IdParam(NOT_FOUND, WHAT) id: number) {
    return this.handlers.test(actor, id);
  }

  @Post(':id')
  @TeamAccess('update')
  @HttpCode(200)
  @ApiOperation({ summary: 'Update a notification handler' })
  @ApiIdParam('Notification handler id')
  @ApiForm()
  @ApiIdResponse()
  @ApiErrors(400, 404)
  update(
    @CurrentActor() actor: Actor,
    @IdParam(NOT_FOUND, WHAT) id: number,
    @Body() dto: UpdateNotificationHandlerDto,
  ) {
    return this.handlers.update(actor, id, dto);
  }

  @Delete(':id')
  @TeamAccess('delete')
  @ApiOperation({ summary: 'Delete a notification handler' })
  @ApiIdParam('Notification handler id')
  @ApiIdResponse()
  @ApiErrors(404)
  remove(@CurrentActor() actor: Actor, @IdParam(NOT_FOUND, WHAT) id: number) {
    return this.handlers.remove(actor, id);
  }
}
