import { ApiProperty } from '@nestjs/swagger';
import { ImportBatch, ImportBatchStatus } from '../../messaging/import-batch.entity';
import { RowError } from '../fields/validate-rows';

class RejectedRow implements RowError {
  @ApiProperty({ type: 'integer', example: 3, description: 'Index of the row in the imported array (-1: the whole message was unusable)' })
  index: number;

  @ApiProperty({ example: '[3].name must not be blank' })
  error: string;
}

/** What importStatus shows of an asynchronous import batch. */
export class ImportOutcome {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  batchId: string;

  @ApiProperty({ enum: ['PENDING', 'APPLIED', 'FAILED'], description: 'PENDING until the consumer has applied the batch' })
  status: ImportBatchStatus;

  @ApiProperty({ type: 'integer', example: 100, description: 'Rows in the batch' })
  itemCount: number;

  @ApiProperty({ type: 'integer', example: 99, description: 'Rows inserted or updated' })
  appliedCount: number;

  @ApiProperty({ type: [RejectedRow], description: 'Rows the consumer refused, with the reason' })
  rejected: RejectedRow[];

  @ApiProperty({ example: 'alice' })
  createdUsername: string;

  @ApiProperty({ type: 'integer', format: 'int64', example: 1763800000000, description: 'Epoch milliseconds' })
  createdTime: number;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    example: 1763800001000,
    nullable: true,
    description: 'Epoch milliseconds; null while PENDING',
  })
  finishedTime: number | null;

  static of(batch: ImportBatch): ImportOutcome {
    const { batchId, status, itemCount, appliedCount, createdUsername, createdTime, finishedTime } = batch;
    return {
      batchId,
      status,
      itemCount,
      appliedCount,
      rejected: batch.rejected ? (JSON.parse(batch.rejected) as RowError[]) : [],
      createdUsername,
      createdTime,
      finishedTime,
    };
  }
}
