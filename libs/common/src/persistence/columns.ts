import { Column, ColumnOptions, Generated, ValueTransformer } from 'typeorm';

/** Epoch milliseconds are BIGINT in the database and numbers in JSON (mysql2 returns strings). */
export const epochMillis: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null || value === undefined ? null : Number(value)),
};

/**
 * A list of strings (e-mail addresses, phone numbers) stored as one comma-separated TEXT column; the
 * field's validation keeps commas out of the items.
 */
export const commaList: ValueTransformer = {
  to: (value: string[] | null | undefined) => (Array.isArray(value) ? value.join(',') : value),
  from: (value: string | null) => (value === null || value === undefined ? null : value === '' ? [] : value.split(',')),
};

/**
 * `delete_time` stores 0 while live so a unique index over (tenant, key, delete_time) blocks live
 * duplicates on MySQL and SQLite alike; the API shows that live sentinel as null.
 */
export const LIVE = 0;
export const deleteTimeColumn: ValueTransformer = {
  to: (value: number | null | undefined) => value ?? LIVE,
  from: (value: string | number | null) => (value === null || Number(value) === LIVE ? null : Number(value)),
};

/** Options objects of @LongText columns; TypeORM keeps a reference to each, so the type can follow the driver. */
const longTextColumns: ColumnOptions[] = [];

/**
 * Unbounded text: TEXT on SQLite, LONGTEXT on MySQL/MariaDB (whose TEXT stops at 64 KB; a 10,000-row
 * import batch is ~1.5 MB). No column type means both on both engines, so `dataSourceOptions` picks it.
 */
export function LongText(options: ColumnOptions = {}): PropertyDecorator {
  const columnOptions: ColumnOptions = { ...options, type: 'text' };
  longTextColumns.push(columnOptions);
  return Column(columnOptions);
}

/** Options objects of @IncrementingKey columns, whose type follows the driver as @LongText's does. */
const incrementingKeys: ColumnOptions[] = [];

/**
 * A primary key the database numbers upwards: BIGINT AUTO_INCREMENT on MySQL/MariaDB, INTEGER PRIMARY KEY
 * AUTOINCREMENT on SQLite (which numbers only an INTEGER key so, and never reuses a number).
 */
export function IncrementingKey(): PropertyDecorator {
  const columnOptions: ColumnOptions = { type: 'bigint', primary: true };
  incrementingKeys.push(columnOptions);
  return (target, property) => {
    Column(columnOptions)(target, property);
    Generated('increment')(target, property as string);
  };
}

/** Called when a data source's options are built (one engine per process), before it initialises. */
export function useLongTextType(engine: 'mysql' | 'sqlite'): void {
  for (const options of longTextColumns) options.type = engine === 'mysql' ? 'longtext' : 'text';
  for (const options of incrementingKeys) options.type = engine === 'mysql' ? 'bigint' : 'integer';
}
