import { ApiProperty } from '@nestjs/swagger';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { NamedSortedRecord } from '../shared/named-sorted';

@Entity('configuration_value_set_table')
@Index('uk_value_set_table_key', ['tenantId', 'valueSetTypeCode', 'row', 'key', 'deleteTime'], { unique: true })
@Index('idx_value_set_table_sort', ['tenantId', 'deleteTime', 'sort', 'createdTime'])
export class ValueSetTable extends NamedSortedRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  valueSetTableId: string;

  @ApiProperty({ example: 'shift' })
  @Column({ type: 'varchar', length: 64 })
  valueSetTypeCode: string;

  @ApiProperty({ example: '1' })
  @Column({ type: 'varchar', length: 64 })
  row: string;

  @ApiProperty({ example: 'start' })
  @Column({ type: 'varchar', length: 128 })
  key: string;

  @ApiProperty({ type: String, nullable: true, example: '08:00' })
  @Column({ type: 'varchar', length: 1024, nullable: true })
  value: string | null;
}
