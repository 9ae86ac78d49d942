import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Logically deleted records of one tenant in one record table (a share of them: the sum over the slots), kept by
 * triggers on that table in the transaction of each write (persistence/deleted-count-sql.ts): the recycle bin's
 * unfiltered total reads a few rows instead of the tenant's deleted records.
 */
@Entity('deleted_count')
export class DeletedCount {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  tableName: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ type: 'int' })
  slot: number;

  /** A slot alone may go below zero (a row counted in one slot, restored through another). */
  @Column({ type: 'bigint' })
  deleted: string;
}
