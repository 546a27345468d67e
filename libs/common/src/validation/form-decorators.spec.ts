import { Type } from '@nestjs/common';
import { rejectionEntries } from '@app/testing/app-error-entries';
import { ErrorEntry } from '../errors';
import {
  IntRange,
  IsFormBoolean,
  IsHexColor,
  OptionalText,
  OptionalTextList,
  Required,
  toFormList,
  Trim,
} from './form-decorators';
import { IsHttpUrl, isHttpUrl, normalizeHttpUrl } from './http-url';
import { createValidationPipe } from './validation.pipe';

class FlagDto {
  @IsFormBoolean()
  flag!: boolean;
}

class RangeDto {
  @IntRange(5, 35)
  size!: number;
}

class ColorDto {
  @IsHexColor()
  color!: string;
}

class NameDto {
  @Trim()
  @Required()
  name!: string;
}

class FormDto {
  @Trim()
  @Required()
  name!: string;

  @IntRange(5, 35)
  size!: number;

  @IsHexColor()
  color!: string;

  @IsFormBoolean()
  flag!: boolean;
}

class UrlDto {
  @IsHttpUrl()
  location_url!: string;
}

class TextDto {
  @OptionalText(5)
  note?: string;

  @OptionalTextList(2, 3)
  tags?: string[];
}

function validate<T>(metatype: Type<T>, value: unknown): Promise<T> {
  return createValidationPipe().transform(value, { type: 'body', metatype }) as Promise<T>;
}

function entriesOf<T>(metatype: Type<T>, value: unknown): Promise<ErrorEntry[]> {
  return rejectionEntries(() => validate(metatype, value));
}

function problem(field: string, title: string): ErrorEntry {
  return { status: 400, title, field, code: 'validation_failed' };
}

describe(IsFormBoolean.name, () => {
  it.each([
    ['0', false],
    ['1', true],
    ['true', true],
    ['false', false],
    [true, true],
    [false, false],
    [1, true],
    [0, false],
  ])('converts %j to %j', async (flag, expected) => {
    const result = await validate(FlagDto, { flag });

    expect(result).toBeInstanceOf(FlagDto);
    expect(result).toEqual({ flag: expected });
  });

  it.each([['yes'], [2], [''], [null]])('rejects %j', async (flag) => {
    expect(await entriesOf(FlagDto, { flag })).toEqual([problem('flag', 'flag must be 0 or 1.')]);
  });
});

describe(IntRange.name, () => {
  it.each([
    ['12', 12],
    [' 7 ', 7],
    ['5', 5],
    ['35', 35],
    [20, 20],
  ])('converts %j to %j', async (size, expected) => {
    expect(await validate(RangeDto, { size })).toEqual({ size: expected });
  });

  it.each([['4'], ['36'], ['1.5'], ['x'], [''], ['-6'], [4.5], [true]])(
    'rejects %j naming the bounds',
    async (size) => {
      expect(await entriesOf(RangeDto, { size })).toEqual([
        problem('size', 'size must be a whole number from 5 to 35.'),
      ]);
    },
  );
});

describe(IsHexColor.name, () => {
  it.each([
    ['#AABBCC', '#aabbcc'],
    [' #0e23Cc ', '#0e23cc'],
  ])('converts %j to %j', async (color, expected) => {
    expect(await validate(ColorDto, { color })).toEqual({ color: expected });
  });

  it.each([['red'], ['#abc'], ['aabbcc'], ['#gggggg'], [123456]])('rejects %j', async (color) => {
    expect(await entriesOf(ColorDto, { color })).toEqual([
      problem('color', 'color must be a colour as #rrggbb.'),
    ]);
  });
});

describe(isHttpUrl.name, () => {
  it('takes absolute http(s) URLs with a host, and only in their full form', () => {
    for (const good of [
      'https://example.com',
      'http://example.com:8080/a?b=c#d',
      'HTTPS://Example.com/x',
      'https://xn--caf-dma.example/',
      ' https://example.com/ ',
    ]) {
      expect([good, isHttpUrl(good)]).toEqual([good, true]);
    }
    for (const bad of [
      'https:example.com', // a browser resolves these against the page's own host
      'https:/example.com',
      'http:example.com/path',
      'javascript:alert(1)',
      'data:text/html,x',
      'ftp://example.com/',
      '//example.com/',
      '/relative',
      'https://',
      'example.com',
      'https://example.com/a\r\nSet-Cookie: x=1', // a URL parser would drop CR LF silently
      'https://exa\tmple.com/',
      'https://example.com/\u0000',
      'https://example.com/\u007f',
      'https://example.com/\ud800', // a lone surrogate
      'https://exa mple.com/',
    ]) {
      expect([bad, isHttpUrl(bad)]).toEqual([bad, false]);
    }
  });
});

/** A user name or password before the host: `https://paypal.com@evil.example/` goes to evil.example. */
const WITH_CREDENTIALS = [
  'https://paypal.com@evil.example/',
  'https://user:pass@host.example/',
  'http://user@host.example:8080/a',
  'https://:secret@host.example/',
  'https://paypal.com%40login@evil.example/',
  'https://a:b@[::1]/',
];

describe(`${isHttpUrl.name} and credentials`, () => {
  it.each(WITH_CREDENTIALS)('refuses %s, a host disguised by userinfo', (url) => {
    expect(isHttpUrl(url)).toBe(false);
  });

  it('takes an @ after the host (path, query, fragment) and an empty userinfo the parser drops', () => {
    for (const good of [
      'https://example.com/@user',
      'https://example.com/?to=a@b.example',
      'https://example.com/#x@y',
      'https://@example.com/',
    ]) {
      expect([good, isHttpUrl(good)]).toEqual([good, true]);
    }
  });

  it('still normalizes such URLs for what reads stored rows (only new writes are refused)', () => {
    expect(normalizeHttpUrl(' https://User:Pass@Host.example/a/../b ')).toBe(
      'https://User:Pass@host.example/b',
    );
  });
});

describe(IsHttpUrl.name, () => {
  it('stores the normalized URL', async () => {
    expect(await validate(UrlDto, { location_url: 'HTTPS://Example.com' })).toEqual({
      location_url: 'https://example.com/',
    });
  });

  it.each(WITH_CREDENTIALS)('refuses %s naming the field and the rule', async (url) => {
    expect(await entriesOf(UrlDto, { location_url: url })).toEqual([
      problem(
        'location_url',
        'location_url must not carry a user name or password (user:password@ before the host), which browsers show like part of the address.',
      ),
    ]);
  });

  it('says what a URL is when it is none', async () => {
    expect(await entriesOf(UrlDto, { location_url: 'example.com' })).toEqual([
      problem(
        'location_url',
        'location_url must be an http:// or https:// URL with a host, at most 2048 characters.',
      ),
    ]);
  });
});

describe(normalizeHttpUrl.name, () => {
  it.each([
    ['https://example.com', 'https://example.com/'],
    ['  HTTPS://Shop.Example:443/a/../b  ', 'https://shop.example/b'],
    ['http://example.com:80/', 'http://example.com/'],
    ['https://example。com/', 'https://example.com/'],
    [
      'https://bücher.example/straße?q=ä b#Ü',
      'https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%A4%20b#%C3%9C',
    ],
    ['https://example.com/😀', 'https://example.com/%F0%9F%98%80'],
    ['http://😀.example/', 'http://xn--e28h.example/'],
    ['https://[::FFFF:7f00:1]:8443/', 'https://[::ffff:7f00:1]:8443/'],
    ['https://example.com/a?sig=AbC%2Fd%3D&x=1', 'https://example.com/a?sig=AbC%2Fd%3D&x=1'],
  ])('%s is %s', (input, href) => {
    expect(normalizeHttpUrl(input)).toBe(href);
    // The stored form is plain printable ASCII, so a Location header can always carry it.
    expect(href).toMatch(/^[\x21-\x7e]+$/);
  });

  it('is null for what isHttpUrl refuses', () => {
    expect(normalizeHttpUrl('https:example.com')).toBeNull();
    expect(normalizeHttpUrl('https://example.com/a\nb')).toBeNull();
  });
});

describe(Required.name, () => {
  it('trims the value with @Trim()', async () => {
    expect(await validate(NameDto, { name: '  Marketing \n' })).toEqual({ name: 'Marketing' });
  });

  it.each([['  '], [''], [undefined], [null]])('rejects %j as required', async (name) => {
    expect(await entriesOf(NameDto, { name })).toEqual([problem('name', 'name is required.')]);
  });
});

describe(createValidationPipe.name, () => {
  it('strips unknown fields from the result', async () => {
    const result = await validate(FormDto, {
      name: 'Docs',
      size: '10',
      color: '#FFFFFF',
      flag: '1',
      is_admin: true,
      user_id: 99,
    });

    expect(result).toBeInstanceOf(FormDto);
    expect(result).toEqual({ name: 'Docs', size: 10, color: '#ffffff', flag: true });
  });

  it('reports one problem per failing field, in declaration order', async () => {
    expect(await entriesOf(FormDto, { name: ' ', size: '99', color: 'red', flag: 'yes' })).toEqual([
      problem('name', 'name is required.'),
      problem('size', 'size must be a whole number from 5 to 35.'),
      problem('color', 'color must be a colour as #rrggbb.'),
      problem('flag', 'flag must be 0 or 1.'),
    ]);
  });
});

describe(toFormList.name, () => {
  it.each([
    [undefined, undefined],
    [
      ['a', 'b'],
      ['a', 'b'],
    ],
    ['a', ['a']],
    [{ 0: 'a', 25: 'b' }, ['a', 'b']],
  ])('turns %j into %j', (value, expected) => {
    expect(toFormList({ value })).toEqual(expected);
  });
});

describe(OptionalText.name, () => {
  it('trims, accepts absence, and bounds the length', async () => {
    expect(await validate(TextDto, { note: '  hello  ' })).toEqual({ note: 'hello' });
    expect(await validate(TextDto, {})).toEqual({});
    expect(await entriesOf(TextDto, { note: 'too long' })).toEqual([
      problem('note', 'note must be shorter than or equal to 5 characters.'),
    ]);
    expect(await entriesOf(TextDto, { note: 5 })).toEqual([
      problem('note', 'note must be a string.'),
    ]);
  });
});

describe(OptionalTextList.name, () => {
  it('takes one value, a list or indexed fields, and bounds items and their length', async () => {
    expect(await validate(TextDto, { tags: 'one' })).toEqual({ tags: ['one'] });
    expect(await validate(TextDto, { tags: { 0: 'a', 1: 'b' } })).toEqual({ tags: ['a', 'b'] });
    expect(await entriesOf(TextDto, { tags: ['a', 'b', 'c'] })).toEqual([
      problem('tags', 'tags must contain no more than 2 elements.'),
    ]);
    expect(await entriesOf(TextDto, { tags: ['long'] })).toEqual([
      problem('tags', 'each value in tags must be shorter than or equal to 3 characters.'),
    ]);
  });
});
