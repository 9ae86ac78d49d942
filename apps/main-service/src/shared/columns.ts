import { epochMillis } from '@app/common';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Column, ValueTransformer } from 'typeorm';
import { MESSAGE_MAX, NAME_MAX, REMARK_MAX, USERNAME_MAX } from './values';

/** Entity columns of main-service's resources: the column and its OpenAPI property from one declaration. */
export interface ColumnOptions {
  nullable?: boolean;
  example: unknown;
  description?: string;
  /** Database column name when the field's snake-case name is an SQL keyword (e.g. `read`). */
  name?: string;
}

const doc = (o: ColumnOptions, type: unknown, extra: Record<string, unknown> = {}) =>
  ApiProperty({ type: type as never, nullable: !!o.nullable, example: o.example, description: o.description, ...extra });
const column = (o: ColumnOptions) => ({ nullable: !!o.nullable, ...(o.name ? { name: o.name } : {}) });

export const TextColumn = (length: number, o: ColumnOptions) =>
  applyDecorators(doc(o, String, { maxLength: length }), Column({ type: 'varchar', length, ...column(o) }));

export const NameColumn = (o: Omit<ColumnOptions, 'example'> & { example?: unknown } = {}) => TextColumn(NAME_MAX, { example: 'Default', ...o });
export const UsernameColumn = (o: Omit<ColumnOptions, 'example'> = {}) => TextColumn(USERNAME_MAX, { example: 'alice', ...o });
export const RemarkColumn = () => TextColumn(REMARK_MAX, { nullable: true, example: 'Checked by the night shift' });
export const MessageColumn = (o: ColumnOptions) => TextColumn(MESSAGE_MAX, o);

/** Longer free text (message bodies): TEXT on both engines (64 KB on MySQL, so at most 16,000 characters of utf8mb4). */
export const BodyTextColumn = (o: ColumnOptions) => applyDecorators(doc(o, String), Column({ type: 'text', ...column(o) }));

/** An enumeration stored as its string; `default`: what a create stores when the field is omitted. */
export const ChoiceColumn = (values: readonly string[], o: ColumnOptions & { default?: string }) =>
  applyDecorators(
    doc(o, String, { enum: values, ...(o.default === undefined ? {} : { default: o.default }) }),
    Column({ type: 'varchar', length: 32, ...column(o), ...(o.default === undefined ? {} : { default: o.default }) }),
  );

export const TimeColumn = (o: ColumnOptions) =>
  applyDecorators(doc(o, 'integer', { description: `${o.description ?? 'Time'} (epoch milliseconds)` }), Column({ type: 'bigint', transformer: epochMillis, ...column(o) }));

export const IntColumn = (o: ColumnOptions & { default?: number }) =>
  applyDecorators(doc(o, 'integer', o.default === undefined ? {} : { default: o.default }), Column({ type: 'int', ...column(o), ...(o.default === undefined ? {} : { default: o.default }) }));

/** IEEE double: coordinates and measurements round-trip exactly as JSON numbers on MySQL and SQLite. */
export const DoubleColumn = (o: ColumnOptions) => applyDecorators(doc(o, 'number'), Column({ type: 'double', nullable: !!o.nullable }));

export const BoolColumn = (o: ColumnOptions & { default: boolean }) =>
  applyDecorators(doc(o, Boolean, { default: o.default }), Column({ type: 'boolean', default: o.default, ...column(o) }));

/**
 * A list of strings (e-mail addresses, phone numbers) as a JSON array in the API, stored as one comma-separated
 * TEXT column; the field's validation keeps commas out of the items.
 */
const commaList: ValueTransformer = {
  to: (value: string[] | null | undefined) => (Array.isArray(value) ? value.join(',') : value),
  from: (value: string | null) => (value === null || value === undefined ? null : value === '' ? [] : value.split(',')),
};
export const TextListColumn = (o: ColumnOptions) =>
  applyDecorators(doc(o, [String]), Column({ type: 'text', transformer: commaList, ...column(o) }));
