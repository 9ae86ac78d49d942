import { ApiProperty } from '@nestjs/swagger';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { NamedSortedRecord } from '../shared/named-sorted';

@Entity('configuration_data_dictionary_table')
@Index('uk_data_dictionary_table_key', ['tenantId', 'dataDictionaryTypeCode', 'dataDictionaryCode', 'row', 'key', 'deleteTime'], { unique: true })
@Index('idx_data_dictionary_table_sort', ['tenantId', 'deleteTime', 'sort', 'createdTime'])
export class DataDictionaryTable extends NamedSortedRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  dataDictionaryTableId: string;

  @ApiProperty({ example: 'region' })
  @Column({ type: 'varchar', length: 64 })
  dataDictionaryTypeCode: string;

  @ApiProperty({ example: 'cn' })
  @Column({ type: 'varchar', length: 64 })
  dataDictionaryCode: string;

  @ApiProperty({ example: '1' })
  @Column({ type: 'varchar', length: 64 })
  row: string;

  @ApiProperty({ example: 'capital' })
  @Column({ type: 'varchar', length: 128 })
  key: string;

  @ApiProperty({ type: String, nullable: true, example: 'Beijing' })
  @Column({ type: 'varchar', length: 1024, nullable: true })
  value: string | null;
}
