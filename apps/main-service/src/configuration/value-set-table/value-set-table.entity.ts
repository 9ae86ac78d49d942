import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { NamedSortedRecord } from '../fields/named-sorted';

@Entity('configuration_value_set_table')
export class ValueSetTable extends NamedSortedRecord {
  @Field.id()
  valueSetTableId: string;

  @Field.text({ max: 64, required: true, key: true, example: 'shift' })
  valueSetTypeCode: string;

  @Field.text({ max: 64, required: true, key: true, example: '1' })
  row: string;

  @Field.text({ max: 128, required: true, key: true, example: 'start' })
  key: string;

  @Field.text({ max: 1024, example: '08:00' })
  value: string | null;
}
