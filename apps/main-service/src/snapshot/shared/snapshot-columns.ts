import { BaseRecord, epochMillis } from '@app/common';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Column } from 'typeorm';
import { DEVICE_NO_MAX, MESSAGE_MAX, REMARK_MAX, USERNAME_MAX } from './snapshot-values';

/** Entity columns of the snapshot resources: the column and its OpenAPI property from one declaration. */
interface ColumnOptions {
  nullable?: boolean;
  example: unknown;
  description?: string;
}

const doc = (o: ColumnOptions, type: unknown, extra: Record<string, unknown> = {}) =>
  ApiProperty({ type: type as never, nullable: !!o.nullable, example: o.example, description: o.description, ...extra });

export const TextColumn = (length: number, o: ColumnOptions) =>
  applyDecorators(doc(o, String, { maxLength: length }), Column({ type: 'varchar', length, nullable: !!o.nullable }));

export const DeviceNoColumn = (o: ColumnOptions) => TextColumn(DEVICE_NO_MAX, o);
export const UsernameColumn = (o: Omit<ColumnOptions, 'example'> = {}) => TextColumn(USERNAME_MAX, { example: 'alice', ...o });
export const RemarkColumn = () => TextColumn(REMARK_MAX, { nullable: true, example: 'Checked by the night shift' });
export const MessageColumn = (o: ColumnOptions) => TextColumn(MESSAGE_MAX, o);

export const ChoiceColumn = (values: readonly string[], o: ColumnOptions) =>
  applyDecorators(doc(o, String, { enum: values }), Column({ type: 'varchar', length: 32, nullable: !!o.nullable }));

export const TimeColumn = (o: ColumnOptions) =>
  applyDecorators(doc(o, 'integer', { description: `${o.description ?? 'Time'} (epoch milliseconds)` }), Column({ type: 'bigint', transformer: epochMillis, nullable: !!o.nullable }));

export const IntColumn = (o: ColumnOptions) => applyDecorators(doc(o, 'integer'), Column({ type: 'int', nullable: !!o.nullable }));

/** IEEE double: coordinates and measurements round-trip exactly as JSON numbers on MySQL and SQLite. */
export const DoubleColumn = (o: ColumnOptions) => applyDecorators(doc(o, 'number'), Column({ type: 'double', nullable: !!o.nullable }));

/** Every snapshot record has the moment it was taken. */
export abstract class SnapRecord extends BaseRecord {
  @TimeColumn({ example: 1767229200000, description: 'When the snapshot was taken' })
  snapTime: number;
}
