import { DataSource } from 'typeorm';

export const isMysqlFamily = (dataSource: DataSource): boolean =>
  dataSource.options.type === 'mysql' || dataSource.options.type === 'mariadb';

/**
 * `INSERT ... ` that updates the existing row instead when the primary key is taken, in the dialect of
 * the data source. `update` is the SET list; it reads the stored row's columns by their bare names.
 */
export function upsertSql(dataSource: DataSource, insert: string, primaryKey: string[], update: string): string {
  return isMysqlFamily(dataSource)
    ? `${insert} ON DUPLICATE KEY UPDATE ${update}`
    : `${insert} ON CONFLICT (${primaryKey.join(', ')}) DO UPDATE SET ${update}`;
}
