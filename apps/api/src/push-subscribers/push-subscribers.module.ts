import { Module } from '@nestjs/common';
import { NotificationsModule } from '@app/notifications';
import { PushSubscribersController } from './push-subscribers.controller';
import { PushSubscribersService } from './push-subscribers.service';

@Module({
  imports: [NotificationsModule],
  controllers: [PushSubscribersController],
  providers: [PushSubscribersService],
})
export class PushSubscribersModule {}
