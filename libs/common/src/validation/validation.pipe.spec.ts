import * as classTransformer from 'class-transformer';
import { IsOptional, IsString } from 'class-validator';
import { AppError } from '../errors';
import { Checked, contextOf, ValidatedWithContext } from './checked';
import { createValidationPipe, validateAs } from './validation.pipe';

class NameDto {
  @IsString()
  name!: string;

  @IsOptional()
  @IsString()
  note?: string;
}

@ValidatedWithContext()
class BeforeLimitDto {
  @Checked<BeforeLimitDto>((value, dto) =>
    Number(value) > contextOf<{ limit: number }>(dto).limit ? 'at must be before the limit' : null,
  )
  at?: string;
}

class NameAndMoreDto extends NameDto {
  @IsOptional()
  @IsString()
  more?: string;
}

describe(createValidationPipe.name, () => {
  const pipe = createValidationPipe();
  const body = { metatype: NameDto, type: 'body' as const };

  afterEach(() => jest.restoreAllMocks());

  it('hands class-transformer only the declared fields, so undeclared ones cost nothing', async () => {
    const spy = jest.spyOn(classTransformer, 'plainToInstance');
    const undeclared = Object.fromEntries(
      Array.from({ length: 200 }, (_, i) => [`x${i}`, { deep: [{}] }]),
    );
    const result = (await pipe.transform({ name: 'a', ...undeclared }, body)) as NameDto;
    expect(result).toBeInstanceOf(NameDto);
    expect({ ...result }).toEqual({ name: 'a' });
    expect(spy).toHaveBeenCalledWith(NameDto, { name: 'a' }, undefined);
  });

  it('keeps the fields a subclass inherits', async () => {
    const result = await pipe.transform(
      { name: 'a', note: 'b', more: 'c', other: 'd' },
      { metatype: NameAndMoreDto, type: 'body' },
    );
    expect({ ...(result as object) }).toEqual({ name: 'a', note: 'b', more: 'c' });
  });

  it('still reports every problem of the declared fields', async () => {
    await expect(pipe.transform({ name: 1, note: 2, junk: 3 }, body)).rejects.toEqual(
      new AppError('validation_failed', [
        { title: 'name must be a string.', field: 'name' },
        { title: 'note must be a string.', field: 'note' },
      ]),
    );
  });

  it('hands a class validated with a context over as received, for validateAs to check', async () => {
    const query = { at: ['1', '2'], other: 'x' };
    expect(await pipe.transform(query, { metatype: BeforeLimitDto, type: 'query' })).toBe(query);
    expect(validateAs(BeforeLimitDto, { at: '5' }, { context: { limit: 4 } }).problems).toEqual([
      { title: 'at must be before the limit.', field: 'at' },
    ]);
    expect(validateAs(BeforeLimitDto, { at: '4' }, { context: { limit: 4 } }).problems).toEqual([]);
  });
});
