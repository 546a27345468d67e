import 'reflect-metadata';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { getMetadataStorage, IsInt, IsOptional, IsString, MaxLength } from 'class-validator';
import { createValidationPipe } from '@app/common';
import { rejectionEntries } from '@app/testing/app-error-entries';
import { assembleDto } from './assemble-dto';

class Colours {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(7)
  colour?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? Number(value) : value))
  @IsInt()
  alpha?: number;
}

class Wifi {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  ssid?: string;
}

const validate = async (type: new () => object, body: object): Promise<unknown> =>
  createValidationPipe().transform(body, { type: 'body', metatype: type, data: '' });

describe(assembleDto.name, () => {
  it('keeps the rules and transforms of the parts, in the order given', async () => {
    const Body = assembleDto([Colours, Wifi], ['colour', 'ssid', 'alpha']);
    const rules = getMetadataStorage().getTargetValidationMetadatas(Body, '', true, false);
    expect([...new Set(rules.map((rule) => rule.propertyName))]).toEqual([
      'colour',
      'ssid',
      'alpha',
    ]);
    expect(await validate(Body, { alpha: '3', ssid: 'home', other: 1 })).toEqual({
      alpha: 3,
      ssid: 'home',
    });
    const entries = await rejectionEntries(
      validate(Body, { alpha: 'x', ssid: 5, colour: '#12345678' }),
    );
    expect(entries.map((entry) => entry.field)).toEqual(['colour', 'ssid', 'alpha']);
  });

  it('refuses an order that leaves a field out or names one twice', () => {
    expect(() => assembleDto([Colours, Wifi], ['colour', 'ssid'])).toThrow(
      'Colours declares colour,alpha; the order lists colour',
    );
    expect(() => assembleDto([Colours, Wifi], ['colour', 'alpha', 'ssid', 'ssid'])).toThrow(
      'Wifi declares ssid; the order lists ssid,ssid',
    );
  });

  it('refuses a part that declares its fields in another order than the list', () => {
    expect(() => assembleDto([Colours, Wifi], ['alpha', 'ssid', 'colour'])).toThrow(
      'Colours declares colour,alpha; the order lists alpha,colour',
    );
  });

  it('refuses two parts that declare the same field', () => {
    class MoreColours {
      @IsOptional()
      colour?: string;
    }
    expect(() => assembleDto([Colours, MoreColours], ['colour', 'alpha'])).toThrow(
      'colour is declared by both Colours and MoreColours',
    );
  });
});
