import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Live records of one tenant in one record table whose filter column holds one value (a share of them: the sum
 * over the slots), kept by the live-count triggers in the transaction of each write (persistence/live-count-sql.ts):
 * a count or page filtered by that one column reads a few rows instead of the matching records.
 */
@Entity('filter_count')
export class FilterCount {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  tableName: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  tenantId: string;

  /** The column's name in the record table. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  field: string;

  /** The column's value as text (a number's digits; a boolean's 1 or 0). */
  @PrimaryColumn({ type: 'varchar', length: 255 })
  value: string;

  @PrimaryColumn({ type: 'int' })
  slot: number;

  /** A slot alone may go below zero (a row counted in one slot, deleted through another). */
  @Column({ type: 'bigint' })
  live: string;
}
