import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { NamedSortedRecord } from '../fields/named-sorted';

@Entity('configuration_value_set')
export class ValueSet extends NamedSortedRecord {
  @Field.id()
  valueSetId: string;

  @Field.text({ max: 64, required: true, key: true, example: 'priority' })
  valueSetTypeCode: string;

  @Field.text({ max: 255, required: true, key: true, example: 'high' })
  value: string;

  @Field.text({ max: 500, example: 'Highest priority' })
  remark: string | null;
}
