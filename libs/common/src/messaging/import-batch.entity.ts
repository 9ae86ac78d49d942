import { ApiProperty } from '@nestjs/swagger';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis, LongText } from '../persistence/columns';

export type ImportBatchStatus = 'PENDING' | 'APPLIED' | 'FAILED';

/** Outcome of an asynchronous import batch; also what makes redelivery harmless. */
@Entity('import_batch')
@Index('idx_import_batch_tenant', ['tenantId', 'createdTime'])
export class ImportBatch {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  batchId: string;

  @ApiProperty({ example: 'acme' })
  @Column({ type: 'varchar', length: 64 })
  tenantId: string;

  @ApiProperty({ example: 'inventory.item.import' })
  @Column({ type: 'varchar', length: 128 })
  topic: string;

  @ApiProperty({ example: 'alice' })
  @Column({ type: 'varchar', length: 128 })
  createdUsername: string;

  @ApiProperty({ enum: ['PENDING', 'APPLIED', 'FAILED'] })
  @Column({ type: 'varchar', length: 16 })
  status: ImportBatchStatus;

  @ApiProperty({ example: 100 })
  @Column({ type: 'int' })
  itemCount: number;

  @ApiProperty({ example: 99 })
  @Column({ type: 'int', default: 0 })
  appliedCount: number;

  @ApiProperty({ description: 'JSON array of {index, error}', example: '[{"index":3,"error":"[3].name must not be blank"}]' })
  @LongText({ nullable: true })
  rejected: string | null;

  /**
   * SHA-256 of the items' canonical JSON (import-digest.ts), set by the request that created the batch:
   * the consumer applies only a message with the same digest. Null only on batches older than it.
   */
  @Column({ type: 'varchar', length: 64, nullable: true })
  payloadDigest: string | null;

  @ApiProperty({ example: 1763800000000 })
  @Column({ type: 'bigint', transformer: epochMillis })
  createdTime: number;

  @ApiProperty({ example: 1763800001000, nullable: true })
  @Column({ type: 'bigint', nullable: true, transformer: epochMillis })
  finishedTime: number | null;
}
