import { Module } from '@nestjs/common';
import { NotificationsModule } from '@app/notifications';
import { DeliveriesService } from './deliveries.service';
import { NotificationHandlersController } from './notification-handlers.controller';
import { NotificationHandlersService } from './notification-handlers.service';

@Module({
  imports: [NotificationsModule],
  controllers: [NotificationHandlersController],
  providers: [NotificationHandlersService, DeliveriesService],
})
export class NotificationHandlersModule {}
