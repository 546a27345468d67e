import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'linkdock:public';

/** Opts a route out of the global API key guard. Everything else requires a key. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);
