import { ApiProperty } from '@nestjs/swagger';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { NamedSortedRecord } from '../shared/named-sorted';

@Entity('configuration_value_set_map')
@Index('uk_value_set_map_key', ['tenantId', 'valueSetTypeCode', 'key', 'deleteTime'], { unique: true })
@Index('idx_value_set_map_sort', ['tenantId', 'deleteTime', 'sort', 'createdTime'])
export class ValueSetMap extends NamedSortedRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  valueSetMapId: string;

  @ApiProperty({ example: 'priority' })
  @Column({ type: 'varchar', length: 64 })
  valueSetTypeCode: string;

  @ApiProperty({ example: 'high' })
  @Column({ type: 'varchar', length: 128 })
  key: string;

  @ApiProperty({ type: String, nullable: true, example: '#ff0000' })
  @Column({ type: 'varchar', length: 1024, nullable: true })
  value: string | null;
}
