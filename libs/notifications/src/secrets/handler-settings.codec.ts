import { Injectable } from '@nestjs/common';
import { HandlerSettings } from '../handler-types';
import { SecretBox } from './secret-box';

/** Handler settings as stored: the whole JSON object sealed with the secrets key. */
@Injectable()
export class HandlerSettingsCodec {
  constructor(private readonly box: SecretBox) {}

  seal(settings: HandlerSettings): string {
    return this.box.encrypt(JSON.stringify(settings));
  }

  open(sealed: string): HandlerSettings {
    const parsed = JSON.parse(this.box.decrypt(sealed)) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new Error('Sealed handler settings are not an object');
    }
    const out: HandlerSettings = {};
    for (const [key, value] of Object.entries(parsed)) {
      if (typeof value === 'string') {
        out[key] = value;
      }
    }
    return out;
  }
}
