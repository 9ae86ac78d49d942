import { DataSource } from 'typeorm';
import { deleteTimeColumn, epochMillis } from '../../persistence/columns';
import type { ColumnMetadata } from '../../persistence/sql/prepared-statement';
import { AnyResource } from '../fields/resource';

/** A column of an export: a field of the record as its JSON shows it. */
export interface ExportColumn {
  column: ColumnMetadata;
  field: string;
  /** Epoch milliseconds (a spreadsheet adds the date beside it). */
  time: boolean;
}

const isTime = (column: ColumnMetadata) => column.transformer === epochMillis || column.transformer === deleteTimeColumn;

/**
 * The record's fields as its JSON answers show them, in declaration order (inherited ones first): every column read
 * by a find, so never a write-only (secret) one, which is `select: false`.
 */
export function exportColumnsOf(resource: AnyResource, dataSource: DataSource): ExportColumn[] {
  const secrets = new Set<string>(resource.writeOnly);
  return dataSource
    .getMetadata(resource.entity)
    .columns.filter((column) => column.isSelect && !secrets.has(column.propertyName))
    .map((column) => ({ column, field: column.propertyName, time: isTime(column) }));
}
