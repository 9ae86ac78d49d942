import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { epochMillis, LongText } from '../persistence/columns';
import { TRACE_CARRIER_MAX } from '../tracing/trace-context';

export type OutboxStatus = 'PENDING' | 'SENT';

/** A message committed with the business write and relayed to the bus afterwards (transactional outbox). */
@Entity('outbox_message')
@Index('idx_outbox_pending', ['status', 'seq'])
/** One tenant's backlog of one topic (importStatus) is counted from the index alone. */
@Index('idx_outbox_backlog', ['status', 'topic', 'messageKey'])
export class OutboxMessage {
  /** Insertion order is publication order (INTEGER: SQLite autoincrements only that). */
  @PrimaryGeneratedColumn({ type: 'integer' })
  seq: number;

  @Column({ type: 'varchar', length: 128 })
  topic: string;

  @Column({ type: 'varchar', length: 64 })
  messageKey: string;

  /** A whole import batch: up to the 16 MB request body. */
  @LongText()
  payload: string;

  @Column({ type: 'varchar', length: 16 })
  status: OutboxStatus;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ type: 'bigint', default: 0, transformer: epochMillis })
  nextAttemptTime: number;

  @Column({ type: 'bigint', transformer: epochMillis })
  createdTime: number;

  @Column({ type: 'bigint', nullable: true, transformer: epochMillis })
  sentTime: number | null;

  /** The W3C trace context of the request that stored it (tracing/trace-context.ts), so the send continues its trace. */
  @Column({ type: 'varchar', length: TRACE_CARRIER_MAX, nullable: true })
  traceContext: string | null;
}
