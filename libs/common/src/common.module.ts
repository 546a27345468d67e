import { Global, Module } from '@nestjs/common';
import { Clock } from './time/clock';

/** Providers every module may use. */
@Global()
@Module({ providers: [Clock], exports: [Clock] })
export class CommonModule {}
