import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { NamedSortedRecord } from '../fields/named-sorted';

@Entity('configuration_data_dictionary_map')
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
