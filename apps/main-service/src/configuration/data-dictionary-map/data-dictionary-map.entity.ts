import { Field } from '@app/common';
import { Entity, Index } from 'typeorm';
import { NamedSortedRecord } from '../fields/named-sorted';

@Entity('configuration_data_dictionary_map')
@Index('uk_data_dictionary_map_key', ['tenantId', 'dataDictionaryTypeCode', 'dataDictionaryCode', 'key', 'deleteTime'], { unique: true })
@Index('idx_data_dictionary_map_sort', ['tenantId', 'deleteTime', 'sort', 'createdTime'])
export class DataDictionaryMap extends NamedSortedRecord {
  @Field.id()
  dataDictionaryMapId: string;

  @Field.text({ max: 64, required: true, key: true, example: 'marital-status' })
  dataDictionaryTypeCode: string;

  @Field.text({ max: 64, required: true, key: true, example: 'single' })
  dataDictionaryCode: string;

  @Field.text({ max: 128, required: true, key: true, example: 'icon' })
  key: string;

  @Field.text({ max: 1024, example: 'mdi-account' })
  value: string | null;
}
