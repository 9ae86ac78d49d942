import { ApiProperty } from '@nestjs/swagger';
import { Column, PrimaryColumn } from 'typeorm';
import { deleteTimeColumn, epochMillis } from './columns';

/** Columns every stored record has (contract.md "Records"). Set by the server only; never part of a write DTO. */
export abstract class BaseRecord {
  /** First part of every primary key (tenant, id): ids of other tenants never collide, so they act as absent. */
  @ApiProperty({ example: 'acme', description: 'Owning tenant (from the token)' })
  @PrimaryColumn({ type: 'varchar', length: 64 })
  tenantId: string;

  @ApiProperty({ type: 'integer', format: 'int64', example: 1, description: 'Starts at 1, +1 on every update' })
  @Column({ type: 'int' })
  revision: number;

  @ApiProperty({ example: 'alice' })
  @Column({ type: 'varchar', length: 128 })
  createdUsername: string;

  @ApiProperty({ type: 'integer', format: 'int64', example: 1763800000000, description: 'Epoch milliseconds' })
  @Column({ type: 'bigint', transformer: epochMillis })
  createdTime: number;

  @ApiProperty({ example: 'alice' })
  @Column({ type: 'varchar', length: 128 })
  lastModifiedUsername: string;

  @ApiProperty({ type: 'integer', format: 'int64', example: 1763800000000, description: 'Epoch milliseconds' })
  @Column({ type: 'bigint', transformer: epochMillis })
  lastModifiedTime: number;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    nullable: true,
    example: null,
    description: 'Null while live; epoch milliseconds of the logical deletion',
  })
  @Column({ type: 'bigint', default: 0, transformer: deleteTimeColumn })
  deleteTime: number | null;

  /**
   * Who made the last write, for its history entry (history/write-stamp.ts): the token's `sub`, `import` or
   * `system`; lastModifiedUsername stays the last person to change the record. Never returned, like the next two.
   */
  @Column({ type: 'varchar', length: 128, nullable: true, select: false })
  lastWriter?: string | null;

  /** The request id of the last write (null outside a request). */
  @Column({ type: 'varchar', length: 64, nullable: true, select: false })
  lastRequestId?: string | null;

  /** The trace id of the last write (null without tracing). */
  @Column({ type: 'varchar', length: 32, nullable: true, select: false })
  lastTraceId?: string | null;
}
