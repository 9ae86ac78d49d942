import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { NamedSortedRecord } from '../fields/named-sorted';

@Entity('configuration_data_dictionary')
export class DataDictionary extends NamedSortedRecord {
  @Field.id()
  dataDictionaryId: string;

  @Field.text({ max: 64, required: true, key: true, example: 'marital-status' })
  dataDictionaryTypeCode: string;

  @Field.text({ max: 64, required: true, key: true, example: 'single' })
  dataDictionaryCode: string;

  @Field.text({ max: 1024, example: '1' })
  value: string | null;

  @Field.text({ max: 500, example: 'Shown in the marital status selector' })
  remark: string | null;
}
