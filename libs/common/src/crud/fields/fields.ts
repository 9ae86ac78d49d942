import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Column, ColumnOptions, PrimaryColumn } from 'typeorm';
import { commaList, epochMillis } from '../../persistence/columns';
import { declareField, WriteUse } from './field-registry';
import { Bool, ClientId, Int, Num, OneOf, Text, TextList, TextListOptions, TextOptions } from './field-rules';
import { NOT_LATER_THAN_NOW_TEXT, NotLaterThanNow } from './time-bound';

/** The one identifier the documents show (record ids, the `id`/`ids` query parameters, import batch ids). */
export const EXAMPLE_ID = 'V1StGXR8Z5jdHi6BmyTbc';

export { Bool, ClientId, Int, Num, OneOf, Revision, Text, TextList } from './field-rules';
export type { IntOptions, NumOptions, TextFormat, TextListOptions, TextOptions } from './field-rules';
export { changeDtoOf, saveDtoOf, writeOnlyColumnsOf } from './field-dto';
export { CLOCK_SKEW_ALLOWANCE_MS } from './time-bound';
export type { SaveBody } from './field-dto';

/**
 * Field declarations of a record: one decorator on the entity property states the column, the rules
 * of a write body, the OpenAPI property (of the record and of the write body) and secrecy. The save
 * DTO, the resource's write-only columns and the logger's redaction are derived from them.
 *
 * Nullability follows from the declaration: a field that is neither `required` nor has a `default` is
 * a NULL column, nullable in both schemas; null in a write body means "not given" (the body sanitizer
 * removes it), so an update keeps the stored value and a create stores the default.
 */
export interface FieldOptions {
  /** A create must give it (NOT NULL column). */
  required?: boolean;
  /** What a create stores when the field is omitted (the column's default; NOT NULL column). */
  default?: string | number | boolean;
  description?: string;
  example?: unknown;
  /** Server-owned: stored and returned, never part of a write body. */
  readOnly?: boolean;
  /** Database column name, when the property's snake-case name is an SQL keyword (e.g. `read`). */
  name?: string;
}

/** Text up to this many characters is VARCHAR; longer text is TEXT (64 KB on MySQL: 16,383 characters of utf8mb4). */
const VARCHAR_MAX = 4000;
const TEXT_MAX = 16383;

export interface TextFieldOptions extends FieldOptions, Omit<TextOptions, keyof FieldOptions | 'writeOnly' | 'nullable'> {
  default?: string;
  /**
   * Accepted on writes, never returned, never logged: the column is `select: false` and the record's
   * schema leaves it out; the write body documents it `writeOnly`.
   */
  secret?: boolean;
  /** A write-only input with no column of its own: the resource's `toColumns` maps it (e.g. to a hash). */
  inputOnly?: boolean;
}

const isNullable = (o: FieldOptions) => !o.required && o.default === undefined;

function columnOptions(o: FieldOptions, column: ColumnOptions): ColumnOptions {
  return {
    ...column,
    nullable: isNullable(o),
    ...(o.default === undefined ? {} : { default: o.default }),
    ...(o.name ? { name: o.name } : {}),
  };
}

/**
 * The property of the record schema (responses). No `default`: generated clients initialise model fields
 * from it, and only a create applies it.
 */
function recordDoc(o: FieldOptions, extra: Record<string, unknown>): PropertyDecorator {
  return ApiProperty({ nullable: isNullable(o), example: o.example, description: o.description, ...extra });
}

/**
 * The rules' shared options, as the write-body rules take them. Only the save body shows the column
 * default as `default` (a create stores it); in update and filter bodies a generated client would send it
 * as if the caller had set it, so there it is only told in the description.
 */
function writeCommon(o: FieldOptions, use: WriteUse) {
  // a required field is always given: its column default never shows
  const createDefault = o.default === undefined || o.required ? undefined : o.default;
  const told =
    createDefault === undefined || use === 'create' ? undefined : `A create that omits it stores ${JSON.stringify(createDefault)}.`;
  return {
    required: o.required,
    nullable: isNullable(o),
    description: told && o.description ? `${o.description.replace(/\.?$/, '.')} ${told}` : (told ?? o.description),
    example: o.example,
    ...(use === 'create' && createDefault !== undefined ? { default: createDefault } : {}),
  };
}

export interface TimeFieldOptions extends FieldOptions {
  /**
   * A moment that has already happened (a snapshot's, a usage's start): a write may give at most now plus
   * CLOCK_SKEW_ALLOWANCE_MS. A resource retained by age needs its main time field declared so.
   */
  past?: boolean;
}

interface Parts {
  column?: PropertyDecorator;
  doc?: PropertyDecorator;
  write?: (use: WriteUse) => PropertyDecorator;
  secret?: boolean;
  past?: boolean;
}

/** Applies the column and record schema, and records the rest for the derived DTO, redaction and write-only list. */
function field(o: FieldOptions, parts: Parts): PropertyDecorator {
  return (target, key) => {
    const property = String(key);
    if (parts.column) parts.column(target, key);
    if (parts.doc && !parts.secret) parts.doc(target, key);
    const exact = (o as { key?: boolean }).key === true;
    declareField(target, {
      property,
      write: o.readOnly ? undefined : parts.write,
      secret: !!parts.secret,
      column: !!parts.column,
      key: exact,
      past: !!parts.past,
    });
  };
}

const time = (description: string | undefined, past?: boolean) =>
  `${description ?? 'Time'} (epoch milliseconds${past ? `; ${NOT_LATER_THAN_NOW_TEXT}` : ''})`;

export const Field = {
  /** The record's identifier: the second part of the primary key (after the tenant); optional on save (generated). */
  id(o: { description?: string } = {}): PropertyDecorator {
    return field(
      {},
      {
        column: PrimaryColumn({ type: 'varchar', length: 32 }),
        doc: ApiProperty({ example: EXAMPLE_ID, ...(o.description ? { description: o.description } : {}) }),
        write: () => ClientId(),
      },
    );
  },

  text(o: TextFieldOptions): PropertyDecorator {
    if (o.max > TEXT_MAX) throw new Error(`text of more than ${TEXT_MAX} characters needs a LONGTEXT column`);
    const { secret, inputOnly, readOnly: _r, name: _n, default: _d, ...rules } = o;
    const type = o.max > VARCHAR_MAX ? { type: 'text' as const } : { type: 'varchar' as const, length: o.max };
    return field(o, {
      column: inputOnly ? undefined : Column(columnOptions(o, { ...type, ...(secret ? { select: false } : {}) })),
      doc: recordDoc(o, { type: String, maxLength: o.max }),
      write: (use) => Text({ ...rules, ...writeCommon(o, use), writeOnly: secret }),
      secret,
    });
  },

  /** A list of strings (addresses, phone numbers): a JSON array in the API, one comma-separated TEXT column. */
  textList(o: FieldOptions & Omit<TextListOptions, keyof FieldOptions | 'nullable'>): PropertyDecorator {
    const { readOnly: _r, name: _n, default: _d, ...rules } = o;
    return field(o, {
      column: Column(columnOptions(o, { type: 'text', transformer: commaList })),
      doc: recordDoc(o, { type: [String], maxItems: o.maxItems }),
      write: (use) => TextList({ ...rules, ...writeCommon(o, use) }),
    });
  },

  int(o: FieldOptions & { default?: number; min?: number; max?: number } = {}): PropertyDecorator {
    return field(o, {
      column: Column(columnOptions(o, { type: 'int' })),
      doc: recordDoc(o, { type: 'integer' }),
      write: (use) => Int({ min: o.min, max: o.max, ...writeCommon(o, use) }),
    });
  },

  /** IEEE double: coordinates and measurements round-trip exactly as JSON numbers on MySQL and SQLite. */
  num(o: FieldOptions & { min: number; max: number }): PropertyDecorator {
    return field(o, {
      column: Column(columnOptions(o, { type: 'double' })),
      doc: recordDoc(o, { type: 'number' }),
      write: (use) => Num({ min: o.min, max: o.max, ...writeCommon(o, use) }),
    });
  },

  bool(o: FieldOptions & { default?: boolean } = {}): PropertyDecorator {
    return field(o, {
      column: Column(columnOptions(o, { type: 'boolean' })),
      doc: recordDoc(o, { type: Boolean }),
      write: (use) => Bool(writeCommon(o, use)),
    });
  },

  /** An enumeration stored as its string, matched exactly. */
  oneOf(values: readonly string[], o: FieldOptions & { default?: string } = {}): PropertyDecorator {
    return field(o, {
      column: Column(columnOptions(o, { type: 'varchar', length: 32 })),
      doc: recordDoc(o, { type: String, enum: values }),
      write: (use) => OneOf(values, writeCommon(o, use)),
    });
  },

  /** A point in time as epoch milliseconds (BIGINT; never negative). */
  time(o: TimeFieldOptions = {}): PropertyDecorator {
    const { past, ...options } = o;
    const described = { ...options, description: time(options.description, past) };
    return field(described, {
      column: Column(columnOptions(options, { type: 'bigint', transformer: epochMillis })),
      doc: recordDoc(described, { type: 'integer', format: 'int64' }),
      write: (use) =>
        applyDecorators(
          Int({ min: 0, max: Number.MAX_SAFE_INTEGER, ...writeCommon(described, use) }),
          ...(past ? [NotLaterThanNow()] : []),
        ),
      past,
    });
  },
};
