import { Module } from '@nestjs/common';
import { NotificationsModule } from '@app/notifications';
import { NotificationHandlersController } from './notification-handlers.controller';
import { NotificationHandlersService } from './notification-handlers.service';

@Module({
  imports: [NotificationsModule],
  controllers: [NotificationHandlersController],
  providers: [NotificationHandlersService],
  exports: [NotificationHandlersService],
})
export class NotificationHandlersModule {}
