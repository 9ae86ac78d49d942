import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Live records and writes of one tenant in one record table (a share of them: the sums over the slots), kept by
 * triggers on that table in the transaction of each write (persistence/live-count-sql.ts): an unfiltered count
 * reads a few rows instead of the tenant's records, and the writes are the version caches compare.
 */
@Entity('live_count')
export class LiveCount {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  tableName: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ type: 'int' })
  slot: number;

  /** A slot alone may go below zero (a row counted in one slot, deleted through another). */
  @Column({ type: 'bigint' })
  live: string;

  /** Rows written through this slot: only ever goes up. */
  @Column({ type: 'bigint', default: 0 })
  writes: string;
}
