import { Column, Entity, Index } from 'typeorm';
import { epochMillis, IncrementingKey, LongText } from '../persistence/columns';

/** The indexes a history page reads on (history-query.ts historyIndex); retention reads `ix_record_history_time`. */
export const HISTORY_INDEXES = {
  record: 'ix_record_history_record',
  table: 'ix_record_history_table',
  tenant: 'ix_record_history_tenant',
  username: 'ix_record_history_username',
  action: 'ix_record_history_action',
  /** The tenant's entries by time, with every other filter's column: a time bound with any filter is read on it alone. */
  time: 'ix_record_history_tenant_time',
};

/**
 * One change of one record, written only by its table's triggers (persistence/history-sql.ts) in the write's own
 * transaction. The identifier grows with every entry, so newest first is descending `historyId`; every read is
 * confined to a tenant, and each index leads with it.
 */
@Entity('record_history')
@Index(HISTORY_INDEXES.record, ['tenantId', 'tableName', 'recordId', 'historyId'])
@Index(HISTORY_INDEXES.table, ['tenantId', 'tableName', 'historyId'])
@Index(HISTORY_INDEXES.tenant, ['tenantId', 'historyId'])
@Index(HISTORY_INDEXES.username, ['tenantId', 'username', 'historyId'])
@Index(HISTORY_INDEXES.action, ['tenantId', 'action', 'historyId'])
@Index(HISTORY_INDEXES.time, ['tenantId', 'time', 'tableName', 'action', 'username'])
@Index('ix_record_history_time', ['time'])
export class RecordHistory {
  /** BIGINT: mysql2 returns it as a string, which is how it is shown (beyond 2^53 a number would round). */
  @IncrementingKey()
  historyId: string;

  @Column({ type: 'varchar', length: 64 })
  tenantId: string;

  @Column({ type: 'varchar', length: 64 })
  tableName: string;

  @Column({ type: 'varchar', length: 64 })
  recordId: string;

  @Column({ type: 'int' })
  revision: number;

  /** CREATE, UPDATE, DELETE, RESTORE or PURGE. */
  @Column({ type: 'varchar', length: 8 })
  action: string;

  @Column({ type: 'varchar', length: 128 })
  username: string;

  @Column({ type: 'bigint', transformer: epochMillis })
  time: number;

  @Column({ type: 'varchar', length: 64, nullable: true })
  requestId: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  traceId: string | null;

  /** A JSON array of the changed columns' names. */
  @LongText()
  changedFields: string;

  /** A JSON array of `[old, new]` per changed column (null for a secret); NULL once the record was purged. */
  @LongText({ nullable: true })
  changedValues: string | null;
}
