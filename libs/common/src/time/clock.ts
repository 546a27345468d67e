import { Injectable } from '@nestjs/common';

/** The source of "now"; tests replace it to control time. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
