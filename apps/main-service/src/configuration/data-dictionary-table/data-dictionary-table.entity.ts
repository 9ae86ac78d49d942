import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { NamedSortedRecord } from '../fields/named-sorted';

@Entity('configuration_data_dictionary_table')
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
