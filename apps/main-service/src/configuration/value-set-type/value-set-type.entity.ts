import { ApiProperty } from '@nestjs/swagger';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { NamedSortedRecord } from '../shared/named-sorted';

@Entity('configuration_value_set_type')
@Index('uk_value_set_type_key', ['tenantId', 'valueSetTypeCode', 'deleteTime'], { unique: true })
@Index('idx_value_set_type_sort', ['tenantId', 'deleteTime', 'sort', 'createdTime'])
export class ValueSetType extends NamedSortedRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  valueSetTypeId: string;

  @ApiProperty({ example: 'priority' })
  @Column({ type: 'varchar', length: 64 })
  valueSetTypeCode: string;

  @ApiProperty({ type: String, nullable: true, example: 'Task priorities' })
  @Column({ type: 'varchar', length: 500, nullable: true })
  remark: string | null;
}
