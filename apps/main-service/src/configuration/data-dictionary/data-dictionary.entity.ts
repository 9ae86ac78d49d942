import { ApiProperty } from '@nestjs/swagger';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { NamedSortedRecord } from '../shared/named-sorted';

@Entity('configuration_data_dictionary')
@Index('uk_data_dictionary_key', ['tenantId', 'dataDictionaryTypeCode', 'dataDictionaryCode', 'deleteTime'], { unique: true })
@Index('idx_data_dictionary_sort', ['tenantId', 'deleteTime', 'sort', 'createdTime'])
export class DataDictionary extends NamedSortedRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  dataDictionaryId: string;

  @ApiProperty({ example: 'gender' })
  @Column({ type: 'varchar', length: 64 })
  dataDictionaryTypeCode: string;

  @ApiProperty({ example: 'male' })
  @Column({ type: 'varchar', length: 64 })
  dataDictionaryCode: string;

  @ApiProperty({ type: String, nullable: true, example: '1' })
  @Column({ type: 'varchar', length: 1024, nullable: true })
  value: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Shown in the gender selector' })
  @Column({ type: 'varchar', length: 500, nullable: true })
  remark: string | null;
}
