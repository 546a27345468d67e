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

  /**
   * null when the value cannot be opened with the current key (SECRETS_KEY changed or the row was
   * altered): the handler then needs its fields sent again.
   */
  tryOpen(sealed: string): HandlerSettings | null {
    try {
      return this.open(sealed);
    } catch {
      return null;
    }
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
