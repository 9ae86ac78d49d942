import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * History entries of one tenant by table and action (a share of them: the sum over the slots), kept by triggers on
 * record_history (persistence/history-count-sql.ts): a history page's total reads a few rows instead of the entries.
 */
@Entity('history_count')
export class HistoryCount {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  tableName: string;

  @PrimaryColumn({ type: 'varchar', length: 8 })
  action: string;

  @PrimaryColumn({ type: 'int' })
  slot: number;

  /** A slot alone may go below zero (an entry counted in one slot, removed through another). */
  @Column({ type: 'bigint' })
  entries: string;

  /** Entries added and removed: the sum of a tenant's is the version of its history (it only grows). */
  @Column({ type: 'bigint' })
  changes: string;
}

/** History entries of one tenant by writer and table (a share of them: the sum over the slots), kept as HistoryCount is. */
@Entity('history_writer_count')
export class HistoryWriterCount {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ type: 'varchar', length: 128 })
  username: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  tableName: string;

  @PrimaryColumn({ type: 'int' })
  slot: number;

  @Column({ type: 'bigint' })
  entries: string;
}
