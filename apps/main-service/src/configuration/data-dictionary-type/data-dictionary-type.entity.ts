import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { NamedSortedRecord } from '../fields/named-sorted';

@Entity('configuration_data_dictionary_type')
export class DataDictionaryType extends NamedSortedRecord {
  @Field.id()
  dataDictionaryTypeId: string;

  @Field.text({ max: 64, required: true, key: true, example: 'marital-status' })
  dataDictionaryTypeCode: string;

  @Field.text({ max: 500, example: 'Marital statuses' })
  remark: string | null;
}
