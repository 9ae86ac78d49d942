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
}
