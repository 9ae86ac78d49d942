import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateBy, ValidateIf } from 'class-validator';
import { CLIENT_ID_PATTERN } from '../persistence/ids';

/**
 * Field decorators for write DTOs: validation and OpenAPI from one declaration.
 * Optional fields accept null (clears the column); required ones must be present and non-blank.
 */
interface Common {
  required?: boolean;
  description?: string;
  example?: unknown;
}

const presence = (o: Common) => (o.required ? [] : [IsOptional()]);
const doc = (o: Common, extra: Record<string, unknown>) =>
  ApiProperty({ required: !!o.required, nullable: !o.required, description: o.description, example: o.example, ...extra });

export interface TextOptions extends Common {
  max: number;
  /** Part of a uniqueness key or an exact-match filter: no leading/trailing whitespace (MySQL PAD SPACE). */
  key?: boolean;
  pattern?: RegExp;
  patternMessage?: string;
  /** A secret: accepted on writes, never returned (its column is `select: false`, see ResourceOptions.writeOnly). */
  writeOnly?: boolean;
}

/** A string rule with its own name, so several rules on one field each keep their message. */
const textRule = (name: string, test: (value: string) => boolean, message: string) =>
  ValidateBy({ name, validator: { validate: (value) => typeof value !== 'string' || test(value), defaultMessage: () => message } });

export function Text(o: TextOptions): PropertyDecorator {
  const rules = [IsString(), MaxLength(o.max)];
  if (o.required) rules.push(IsNotEmpty(), textRule('isNotBlank', (v) => /\S/.test(v), '$property must not be blank'));
  if (o.key) rules.push(textRule('noSurroundingWhitespace', (v) => v === v.trim(), '$property must not start or end with whitespace'));
  if (o.pattern) rules.push(Matches(o.pattern, { message: o.patternMessage ?? `$property must match ${o.pattern}` }));
  const secret = o.writeOnly ? { writeOnly: true, description: o.description ?? 'Write-only: stored, never returned; omitted on update keeps the stored value' } : {};
  return applyDecorators(...presence(o), ...rules, doc(o, { type: String, maxLength: o.max, ...(o.pattern ? { pattern: o.pattern.source } : {}), ...secret }));
}

export interface IntOptions extends Common {
  min?: number;
  max?: number;
}

export function Int(o: IntOptions = {}): PropertyDecorator {
  const min = o.min ?? -2147483648;
  const max = o.max ?? 2147483647;
  return applyDecorators(...presence(o), IsInt(), Min(min), Max(max), doc(o, { type: 'integer', minimum: min, maximum: max }));
}

export interface NumOptions extends Common {
  min: number;
  max: number;
}

/** A finite JSON number, fractions allowed (coordinates, measurements); a string is a wrong type (1003). */
export function Num(o: NumOptions): PropertyDecorator {
  return applyDecorators(...presence(o), IsNumber({ allowNaN: false, allowInfinity: false }), Min(o.min), Max(o.max), doc(o, { type: 'number', minimum: o.min, maximum: o.max }));
}

export function Bool(o: Common = {}): PropertyDecorator {
  return applyDecorators(...presence(o), IsBoolean(), doc(o, { type: Boolean }));
}

export function OneOf(values: readonly string[], o: Common = {}): PropertyDecorator {
  return applyDecorators(...presence(o), IsString(), IsIn(values as string[]), doc(o, { type: String, enum: values }));
}

/** The resource's identifier on save: optional, generated server-side when omitted. */
export function ClientId(o: Common = {}): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_obj, value) => value !== undefined),
    IsString(),
    Matches(CLIENT_ID_PATTERN, { message: '$property must be 1 to 32 characters of [0-9A-Za-z]' }),
    ApiProperty({ required: !!o.required, type: String, pattern: CLIENT_ID_PATTERN.source, example: 'V1StGXR8Z5jdHi6BmyTbc', description: o.description }),
  );
}
