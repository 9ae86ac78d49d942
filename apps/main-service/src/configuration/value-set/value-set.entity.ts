import { ApiProperty } from '@nestjs/swagger';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { NamedSortedRecord } from '../shared/named-sorted';

@Entity('configuration_value_set')
@Index('uk_value_set_key', ['tenantId', 'valueSetTypeCode', 'value', 'deleteTime'], { unique: true })
@Index('idx_value_set_sort', ['tenantId', 'deleteTime', 'sort', 'createdTime'])
export class ValueSet extends NamedSortedRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  valueSetId: string;

  @ApiProperty({ example: 'priority' })
  @Column({ type: 'varchar', length: 64 })
  valueSetTypeCode: string;

  @ApiProperty({ example: 'high' })
  @Column({ type: 'varchar', length: 255 })
  value: string;

  @ApiProperty({ type: String, nullable: true, example: 'Highest priority' })
  @Column({ type: 'varchar', length: 500, nullable: true })
  remark: string | null;
}
