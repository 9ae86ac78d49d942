import 'reflect-metadata';
import { ArgumentMetadata, Type as NestType } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  Allow,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Bool, ClientId, Int, Num, OneOf, Text, TextList } from '../crud/fields/field-rules';
import { validationPipe } from './validation';
import { checkRows } from '../crud/fields/validate-rows';
import { acceptedBody, hasCompiledRules, markCompiledRules } from './compiled-validation';

const HOOK = () => 'hook';

/** A class of every kind of field rule; each call makes another class with the same rules. */
function bodyClass() {
  class Body {
    @ClientId() widgetId?: unknown;
    @Text({ required: true, max: 8, key: true }) code!: unknown;
    @Text({ max: 20, format: 'email' }) mail?: unknown;
    @Text({ max: 50, nullable: false, pattern: /^[a-z]*$/ }) lower?: unknown;
    @TextList({ maxItems: 3, max: 30, format: 'e164' }) phones?: unknown;
    @Int({ min: 0, max: 10 }) rank?: unknown;
    @Num({ min: -1.5, max: 1.5, required: true }) ratio!: unknown;
    @Bool() active?: unknown;
    @OneOf(['A', 'B']) kind?: unknown;
    @IsDefined() @Allow() always!: unknown;
    @ValidateIf((o: { kind?: unknown }) => o.kind === 'B') @IsInt() onlyForB?: unknown;
    /** A default the instance starts with. */
    @Int() withDefault?: unknown = 5;
    /** A function the instance holds, a method and a getter the class has: class-transformer never copies a key onto those. */
    @Allow() hook?: unknown = HOOK;
    @Allow() get shown(): string {
      return 'getter';
    }
    describe(): string {
      return 'method';
    }
  }
  return Body;
}

const Body = markCompiledRules(bodyClass());
type Body = InstanceType<typeof Body>;

const valid = () => ({
  widgetId: 'abc123',
  code: 'C1',
  mail: 'a@b.io',
  lower: 'abc',
  phones: ['+12345'],
  rank: 3,
  ratio: 0.5,
  active: true,
  kind: 'A',
  always: 0,
});

/** A valid body changed one way: each property given each kind of value, removed, and keys the class lacks. */
function variants(): Record<string, unknown>[] {
  const values: unknown[] = [null, '', ' ', 'x', 'ABC', 'C1 ', 'a@b.io', '+12345', 'a'.repeat(60), 0, -1, 11, 1.2, 2, 1e300, true, false];
  values.push([], ['+1'], ['+12345', '+12345', '+12345', '+12345'], [1], [null], ['+12345', ' +12345'], {}, { a: 1 }, [[]]);
  const out: Record<string, unknown>[] = [valid()];
  for (const key of [
    ...Object.keys(valid()),
    'onlyForB',
    'withDefault',
    'shown',
    'describe',
    'hook',
    'unknown',
    'toString',
    '__proto__',
    'constructor',
  ]) {
    const without = valid() as Record<string, unknown>;
    delete without[key];
    out.push(without);
    for (const value of values)
      out.push(Object.defineProperty(valid(), key, { value, enumerable: true, writable: true, configurable: true }));
  }
  out.push({ ...valid(), kind: 'B', onlyForB: 1 }, { ...valid(), kind: 'B', onlyForB: 'x' }, { ...valid(), kind: 'B' });
  return out;
}

/** A body as the server reads it: JSON parsed in this realm (a structured clone's objects have another realm's prototype). */
const fromJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The same rules, not marked: its bodies go through class-transformer and class-validator. */
const Unmarked = bodyClass();

const BODY: ArgumentMetadata = { type: 'custom', metatype: Body, data: undefined };

/** What the validation pipe of `type` answers: the value it gives, or what it throws. */
async function answer(type: NestType<unknown>, value: unknown): Promise<{ value?: unknown; error?: unknown }> {
  const pipe = validationPipe(type);
  try {
    return { value: await pipe.transform(fromJson(value), { ...BODY, metatype: type }) };
  } catch (error) {
    return { error: (error as { getResponse?: () => unknown }).getResponse?.() ?? error };
  }
}

/** A value's class and own keys in order, with their values: toEqual alone ignores the order and the prototype. */
const shape = (value: unknown) =>
  value && typeof value === 'object' ? { type: value.constructor?.name, entries: Object.entries(value) } : { value };

/** A class with a nested object of a declared class, as a page body's sorter; each call makes other classes. */
function sortedClasses() {
  class Sorter {
    @IsString() @MaxLength(8) field!: unknown;
    @IsOptional() @IsIn(['ascend', 'descend']) order?: unknown;
    @Allow() withDefault?: unknown = 'kept';
  }
  class Sorted {
    @IsOptional() @IsObject() @ValidateNested() @Type(() => Sorter) sorter?: unknown;
    @IsOptional() @IsInt() current?: unknown;
    @ValidateIf((o: { current?: unknown }) => o.current !== 0)
    @IsOptional()
    @IsObject()
    @ValidateNested()
    @Type(() => Sorter)
    other?: unknown;
  }
  return { Sorter, Sorted };
}

const marks = sortedClasses();
markCompiledRules(marks.Sorter);
const Sorted = markCompiledRules(marks.Sorted, { sorter: marks.Sorter, other: marks.Sorter });
const UnmarkedSorted = sortedClasses().Sorted;

/** Sorted bodies: the sorter given every kind of value, and its own keys every kind of value. */
function sortedVariants(): Record<string, unknown>[] {
  const inner: unknown[] = [undefined, null, '', 'x', 'toolongfield', 1, true, [], ['x'], {}, { a: 1 }];
  const sorters: unknown[] = [null, 'x', 1, [], [{ field: 'x' }], {}, { field: 'x' }, { field: 'x', order: 'descend' }];
  sorters.push({ field: 'x', unknown: 1 }, { field: 'x', withDefault: 2 }, JSON.parse('{"field":"x","__proto__":{"a":1}}') as object, {
    field: 'x',
    sub: { a: 1 },
  });
  for (const value of inner) sorters.push({ field: value }, { field: 'x', order: value });
  const out: Record<string, unknown>[] = [{}];
  for (const sorter of sorters)
    out.push({ sorter }, { sorter, current: 1 }, { sorter, current: 'x' }, { other: sorter }, { other: sorter, current: 0 });
  return out;
}

/** A value's class and own keys in order, nested objects alike. */
const deepShape = (value: unknown): unknown =>
  value && typeof value === 'object'
    ? { type: value.constructor?.name, entries: Object.entries(value).map(([key, inner]) => [key, deepShape(inner)]) }
    : { value };

describe('acceptedBody (compiled validation)', () => {
  it('answers every variant of a body exactly as class-transformer and class-validator do, and accepts the valid ones itself', async () => {
    let accepted = 0;
    for (const body of variants()) {
      const [fast, slow] = [await answer(Body, body), await answer(Unmarked, body)];
      expect({ body, ...shape(fast.value), error: fast.error }).toEqual({ body, ...shape(slow.value), error: slow.error });
      if (fast.value) expect(fast.value).toBeInstanceOf(Body);
      if (acceptedBody(Body, fromJson(body))) {
        accepted++;
        expect(slow.error).toBeUndefined();
      }
    }
    // the valid body and each variant that keeps it valid took the compiled way
    expect(accepted).toBeGreaterThan(40);
  });

  it('answers bodies with a nested object of a declared class exactly as class-transformer and class-validator do', async () => {
    let accepted = 0;
    for (const body of sortedVariants()) {
      const [fast, slow] = [await answer(Sorted, body), await answer(UnmarkedSorted, body)];
      expect({ body, shape: deepShape(fast.value), error: fast.error }).toEqual({ body, shape: deepShape(slow.value), error: slow.error });
      if (acceptedBody(Sorted, fromJson(body))) {
        accepted++;
        expect(slow.error).toBeUndefined();
      }
    }
    expect(accepted).toBeGreaterThan(10);
    const entity = acceptedBody(Sorted, { sorter: { field: 'x', unknown: 1 } }) as { sorter: object };
    expect(entity.sorter).toBeInstanceOf(marks.Sorter);
    expect(entity.sorter).toEqual({ field: 'x', withDefault: 'kept' });
    // a nested object its conditions skip is left to the pipe, which keeps it as class-transformer made it
    expect(acceptedBody(Sorted, { other: { field: 'x' }, current: 0 })).toBeUndefined();
  });

  it('keeps and refuses the same rows of a batch as class-validator does', async () => {
    const rows = variants().filter((row) => !Object.keys(row).some((key) => key === '__proto__'));
    const checked = async (type: NestType<object>) => {
      const { valid, failures } = await checkRows(type, fromJson(rows));
      return {
        valid: valid.map(({ index, row }) => ({ index, ...shape(row) })),
        failures: failures.map((f) => [f.index, f.failure.parts, f.failure.refused]),
      };
    };
    const [fast, slow] = [await checked(Body), await checked(Unmarked)];
    expect(fast).toEqual(slow);
    expect(fast.valid.length).toBeGreaterThan(40);
  });

  it('gives the instance the pipe gives: defaults kept, unknown keys and methods left out, arrays copied', () => {
    const body = { ...valid(), unknown: 1, describe: 'x', phones: ['+12345'] };
    const entity = acceptedBody(Body, body) as Body & Record<string, unknown>;
    expect(entity).toBeInstanceOf(Body);
    expect(entity.withDefault).toBe(5);
    expect('unknown' in entity).toBe(false);
    expect(entity.describe()).toBe('method');
    expect(acceptedBody(Body, { ...valid(), hook: 'x' })).toMatchObject({ hook: HOOK });
    expect(entity.phones).toEqual(['+12345']);
    expect(entity.phones).not.toBe(body.phones);
  });

  it('leaves to the pipe what it cannot judge: nested values, a class not marked, a nested rule, async rules, no rules', () => {
    expect(acceptedBody(Body, { ...valid(), extra: { a: 1 } })).toBeUndefined();
    expect(acceptedBody(Body, { ...valid(), withDefault: undefined })).toBeUndefined();
    expect(acceptedBody(Body, Object.assign(Object.create(null) as object, valid()))).toBeUndefined();
    class Inner {
      @IsString() name!: unknown;
    }
    @markCompiledRules
    class Nested {
      @ValidateNested() @Type(() => Inner) inner?: unknown;
    }
    @markCompiledRules
    class Async {
      @ValidateBy({ name: 'later', async: true, validator: { validate: () => Promise.resolve(true) } }) name!: unknown;
    }
    @markCompiledRules
    class Promising {
      @ValidateBy({ name: 'promise', validator: { validate: () => Promise.resolve(true) as unknown as boolean } }) name!: unknown;
    }
    @markCompiledRules
    class Bare {}
    expect(hasCompiledRules(Unmarked)).toBe(false);
    expect(acceptedBody(Unmarked, valid())).toBeUndefined();
    expect(acceptedBody(Inner, { name: 'x' })).toBeUndefined();
    expect(acceptedBody(Nested, {})).toBeUndefined();
    expect(acceptedBody(Async, { name: 'x' })).toBeUndefined();
    expect(acceptedBody(Promising, { name: 'x' })).toBeUndefined();
    expect(acceptedBody(Bare, {})).toBeUndefined();
  });
});
