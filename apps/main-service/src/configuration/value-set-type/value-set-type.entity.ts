import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { NamedSortedRecord } from '../fields/named-sorted';

@Entity('configuration_value_set_type')
export class ValueSetType extends NamedSortedRecord {
  @Field.id()
  valueSetTypeId: string;

  @Field.text({ max: 64, required: true, key: true, example: 'priority' })
  valueSetTypeCode: string;

  @Field.text({ max: 500, example: 'Task priorities' })
  remark: string | null;
}
