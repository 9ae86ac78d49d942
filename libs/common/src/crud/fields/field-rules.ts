import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  isEmail,
  isFQDN,
  isIP,
  isJSON,
  isURL,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateIf,
  ValidationOptions,
} from 'class-validator';
import { CLIENT_ID_PATTERN } from '../../persistence/ids';
import { LANGUAGE_TAG_MESSAGE, LANGUAGE_TAG_PATTERN } from '../../values/language-tag';

/**
 * The rules of one write-body property: validation and OpenAPI from one declaration (the save DTOs
 * derived from an entity's field declarations, see fields.ts, apply them).
 * Optional fields may be omitted. Null never reaches validation: the body sanitizer removes it (it means
 * "not given": an update keeps the stored value, a create takes the column's default). Required fields must
 * be present and non-blank.
 */
interface Common {
  required?: boolean;
  /** False for an optional field whose column has a default instead of null (documented as not nullable). Default true. */
  nullable?: boolean;
  description?: string;
  example?: unknown;
  /** The value a create stores when the field is omitted (the column's default), shown as the schema's `default`. */
  default?: unknown;
}

const nullable = (o: Common) => !o.required && o.nullable !== false;
const presence = (o: Common) => (o.required ? [] : nullable(o) ? [IsOptional()] : [ValidateIf((_obj, value) => value !== undefined)]);
const doc = (o: Common, extra: Record<string, unknown>) =>
  ApiProperty({
    required: !!o.required,
    nullable: nullable(o),
    description: o.description,
    example: o.example,
    ...(o.default === undefined ? {} : { default: o.default }),
    ...extra,
  });

/**
 * Well-known text formats, checked beside the length. `email`: an address without display name, quotes,
 * commas or semicolons; `url`: absolute http(s); `hostname`: a DNS name or an IP address; `e164`: `+` and
 * 2 to 15 digits; `bcp47`: a language tag (LANGUAGE_TAG_PATTERN, e.g. `zh-Hans-CN`);
 * `json`: a JSON object or array.
 */
export type TextFormat = 'email' | 'url' | 'hostname' | 'e164' | 'bcp47' | 'json';

const FORMATS: Record<TextFormat, { test: (value: string) => boolean; message: string; openApi: Record<string, unknown> }> = {
  email: { test: (v) => isEmail(v) && !/[",;\s]/.test(v), message: '$property must be an e-mail address', openApi: { format: 'email' } },
  url: {
    test: (v) => isURL(v, { protocols: ['http', 'https'], require_protocol: true, require_tld: false }),
    message: '$property must be an http(s) URL',
    openApi: { format: 'uri' },
  },
  hostname: {
    test: (v) => isIP(v) || isFQDN(v, { require_tld: false }),
    message: '$property must be a host name or IP address',
    openApi: { format: 'hostname' },
  },
  e164: {
    test: (v) => /^\+[1-9]\d{1,14}$/.test(v),
    message: '$property must be a phone number in E.164 form (+ and 2 to 15 digits)',
    openApi: { pattern: '^\\+[1-9]\\d{1,14}$' },
  },
  bcp47: {
    test: (v) => LANGUAGE_TAG_PATTERN.test(v),
    message: LANGUAGE_TAG_MESSAGE,
    openApi: { pattern: LANGUAGE_TAG_PATTERN.source },
  },
  json: { test: (v) => isJSON(v) && /^\s*[[{]/.test(v), message: '$property must be a JSON object or array', openApi: {} },
};

export interface TextOptions extends Common {
  max: number;
  /** At least this many characters (secrets). */
  min?: number;
  /** Part of a uniqueness key or an exact-match filter: no leading/trailing whitespace (MySQL PAD SPACE). */
  key?: boolean;
  pattern?: RegExp;
  patternMessage?: string;
  /** A secret: accepted on writes, never returned (documented `writeOnly`). */
  writeOnly?: boolean;
  format?: TextFormat;
}

/** A string rule with its own name, so several rules on one field each keep their message. */
const textRule = (name: string, test: (value: string) => boolean, message: string, options?: ValidationOptions) =>
  // the message as an option (not a default message): validation errors read it as the rule's template
  ValidateBy({ name, validator: { validate: (value) => typeof value !== 'string' || test(value) } }, { ...options, message });

/** The rules of one string (with `each`: of every item of a list). */
function textRules(o: TextOptions, each?: ValidationOptions): PropertyDecorator[] {
  const rules = [IsString(each), MaxLength(o.max, each)];
  if (o.required)
    rules.push(
      IsNotEmpty(each),
      textRule('isNotBlank', (v) => /\S/.test(v), '$property must not be blank', each),
    );
  if (o.key)
    rules.push(textRule('noSurroundingWhitespace', (v) => v === v.trim(), '$property must not start or end with whitespace', each));
  if (o.pattern) rules.push(Matches(o.pattern, { ...each, message: o.patternMessage ?? `$property must match ${o.pattern}` }));
  if (o.format) rules.push(textRule(`format:${o.format}`, FORMATS[o.format].test, FORMATS[o.format].message, each));
  if (o.min !== undefined) rules.push(MinLength(o.min, each));
  return rules;
}

const textDoc = (o: TextOptions) => ({
  type: String,
  maxLength: o.max,
  ...(o.min === undefined ? {} : { minLength: o.min }),
  ...(o.pattern ? { pattern: o.pattern.source } : {}),
  ...(o.format ? FORMATS[o.format].openApi : {}),
});

export function Text(o: TextOptions): PropertyDecorator {
  const secret = o.writeOnly
    ? { writeOnly: true, description: o.description ?? 'Write-only: stored, never returned; omitted on update keeps the stored value' }
    : {};
  return applyDecorators(...presence(o), ...textRules(o), doc(o, { ...textDoc(o), ...secret }));
}

export interface TextListOptions extends Omit<TextOptions, 'writeOnly' | 'key' | 'min'> {
  maxItems: number;
}

/**
 * A JSON array of strings (e-mail addresses, phone numbers), each checked like a required key Text
 * (no blank items, no surrounding whitespace). A required list needs at least one item.
 */
export function TextList(o: TextListOptions): PropertyDecorator {
  const { required, description, example, nullable: _n, maxItems, ...item } = o;
  const size = [...(required ? [ArrayNotEmpty()] : []), ArrayMaxSize(maxItems)];
  return applyDecorators(
    ...presence(o),
    IsArray(),
    ...size,
    ...textRules({ ...item, required: true, key: true }, { each: true }),
    doc(o, { type: 'array', items: { ...textDoc(o), type: 'string' }, maxItems, minItems: required ? 1 : 0, description, example }),
  );
}

export interface IntOptions extends Common {
  min?: number;
  max?: number;
}

const INT32 = { min: -2147483648, max: 2147483647 };

/** An integer, 32-bit unless its range needs more (epoch milliseconds): then `format: int64`, a long in typed clients. */
export function Int(o: IntOptions = {}): PropertyDecorator {
  const min = o.min ?? INT32.min;
  const max = o.max ?? INT32.max;
  const format = min < INT32.min || max > INT32.max ? { format: 'int64' } : {};
  return applyDecorators(...presence(o), IsInt(), Min(min), Max(max), doc(o, { type: 'integer', ...format, minimum: min, maximum: max }));
}

/**
 * `revision` in a write body (optimistic locking): optional, at least 1; int64 like the record's revision,
 * so a typed client has one type for it everywhere.
 */
export function Revision(description: string): PropertyDecorator {
  return Int({ min: 1, max: Number.MAX_SAFE_INTEGER, example: 1, description });
}

export interface NumOptions extends Common {
  min: number;
  max: number;
}

/** A finite JSON number, fractions allowed (coordinates, measurements); a string is a wrong type (1003). */
export function Num(o: NumOptions): PropertyDecorator {
  return applyDecorators(
    ...presence(o),
    IsNumber({ allowNaN: false, allowInfinity: false }),
    Min(o.min),
    Max(o.max),
    doc(o, { type: 'number', minimum: o.min, maximum: o.max }),
  );
}

export function Bool(o: Common = {}): PropertyDecorator {
  return applyDecorators(...presence(o), IsBoolean(), doc(o, { type: Boolean }));
}

export function OneOf(values: readonly string[], o: Common = {}): PropertyDecorator {
  return applyDecorators(...presence(o), IsString(), IsIn(values as string[]), doc(o, { type: String, enum: values }));
}

/** The resource's identifier on save: optional, generated server-side when omitted (or null). */
export function ClientId(o: Common = {}): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_obj, value) => value !== undefined),
    IsString(),
    Matches(CLIENT_ID_PATTERN, { message: '$property must be 1 to 32 characters of [0-9A-Za-z]' }),
    // no fixed example: a fixed id makes the second "Try it out" of a save collide with the first
    ApiProperty({
      required: !!o.required,
      type: String,
      nullable: true,
      pattern: CLIENT_ID_PATTERN.source,
      example: null,
      description: o.description ?? 'Omitted or null: generated by the server (21 characters of [0-9A-Za-z])',
    }),
  );
}
