import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { epochMillis } from '../persistence/columns';

/**
 * A message on an import topic that the consumer refused to apply: it matched no batch the API
 * created (unknown id, other tenant, other item count or payload digest) or could not be read.
 * Kept apart from import_batch so a forged message never changes a real batch or shows in any
 * tenant's importStatus; the claimed values are stored truncated, as evidence only. Bounded: the
 * consumer keeps the newest IMPORT_REJECTIONS_KEPT rows.
 */
@Entity('import_rejection')
export class ImportRejection {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 128 })
  topic: string;

  /** The message key (the tenant the producer claimed to partition by). */
  @Column({ type: 'varchar', length: 64 })
  messageKey: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  claimedBatchId: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  claimedTenantId: string | null;

  @Column({ type: 'varchar', length: 255 })
  reason: string;

  @Column({ type: 'bigint', transformer: epochMillis })
  receivedTime: number;
}

export const IMPORT_REJECTIONS_KEPT = 10_000;
