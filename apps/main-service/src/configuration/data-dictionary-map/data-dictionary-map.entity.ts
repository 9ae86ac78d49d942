import { ApiProperty } from '@nestjs/swagger';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { NamedSortedRecord } from '../shared/named-sorted';

@Entity('configuration_data_dictionary_map')
@Index('uk_data_dictionary_map_key', ['tenantId', 'dataDictionaryTypeCode', 'dataDictionaryCode', 'key', 'deleteTime'], { unique: true })
@Index('idx_data_dictionary_map_sort', ['tenantId', 'deleteTime', 'sort', 'createdTime'])
export class DataDictionaryMap extends NamedSortedRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  dataDictionaryMapId: string;

  @ApiProperty({ example: 'gender' })
  @Column({ type: 'varchar', length: 64 })
  dataDictionaryTypeCode: string;

  @ApiProperty({ example: 'male' })
  @Column({ type: 'varchar', length: 64 })
  dataDictionaryCode: string;

  @ApiProperty({ example: 'icon' })
  @Column({ type: 'varchar', length: 128 })
  key: string;

  @ApiProperty({ type: String, nullable: true, example: 'mdi-gender-male' })
  @Column({ type: 'varchar', length: 1024, nullable: true })
  value: string | null;
}
