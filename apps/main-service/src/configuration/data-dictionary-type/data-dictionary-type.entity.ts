import { ApiProperty } from '@nestjs/swagger';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { NamedSortedRecord } from '../shared/named-sorted';

@Entity('configuration_data_dictionary_type')
@Index('uk_data_dictionary_type_key', ['tenantId', 'dataDictionaryTypeCode', 'deleteTime'], { unique: true })
@Index('idx_data_dictionary_type_sort', ['tenantId', 'deleteTime', 'sort', 'createdTime'])
export class DataDictionaryType extends NamedSortedRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  dataDictionaryTypeId: string;

  @ApiProperty({ example: 'gender' })
  @Column({ type: 'varchar', length: 64 })
  dataDictionaryTypeCode: string;

  @ApiProperty({ type: String, nullable: true, example: 'Genders' })
  @Column({ type: 'varchar', length: 500, nullable: true })
  remark: string | null;
}
