import { availableParallelism } from 'node:os';
import { Global, Module } from '@nestjs/common';
import { ImageIntake, ImageQueue } from './images';
import { Clock } from './time/clock';

/**
 * Image work in flight at once: one less than the cores, so that libuv's pool (4 threads, shared
 * with file reads) and the event loop always have room; past 32 waiting, uploads get a 503.
 */
const IMAGE_QUEUE = {
  provide: ImageQueue,
  useFactory: () => new ImageQueue(Math.max(1, availableParallelism() - 1), 32),
};

/** Providers every module may use. */
@Global()
@Module({
  providers: [
    Clock,
    IMAGE_QUEUE,
    {
      provide: ImageIntake,
      useFactory: (q: ImageQueue) => new ImageIntake(q),
      inject: [ImageQueue],
    },
  ],
  exports: [Clock, ImageQueue, ImageIntake],
})
export class CommonModule {}
