import { Field } from '@app/common';
import { Entity, Index } from 'typeorm';
import { NamedSortedRecord } from '../fields/named-sorted';

@Entity('configuration_data_dictionary_table')
@Index('uk_data_dictionary_table_key', ['tenantId', 'dataDictionaryTypeCode', 'dataDictionaryCode', 'row', 'key', 'deleteTime'], {
  unique: true,
})
@Index('idx_data_dictionary_table_sort', ['tenantId', 'deleteTime', 'sort', 'createdTime'])
export class DataDictionaryTable extends NamedSortedRecord {
  @Field.id()
  dataDictionaryTableId: string;

  @Field.text({ max: 64, required: true, key: true, example: 'region' })
  dataDictionaryTypeCode: string;

  @Field.text({ max: 64, required: true, key: true, example: 'cn' })
  dataDictionaryCode: string;

  @Field.text({ max: 64, required: true, key: true, example: '1' })
  row: string;

  @Field.text({ max: 128, required: true, key: true, example: 'capital' })
  key: string;

  @Field.text({ max: 1024, example: 'Beijing' })
  value: string | null;
}
