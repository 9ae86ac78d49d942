import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { NamedSortedRecord } from '../fields/named-sorted';

@Entity('configuration_value_set_map')
export class ValueSetMap extends NamedSortedRecord {
  @Field.id()
  valueSetMapId: string;

  @Field.text({ max: 64, required: true, key: true, example: 'priority' })
  valueSetTypeCode: string;

  @Field.text({ max: 128, required: true, key: true, example: 'high' })
  key: string;

  @Field.text({ max: 1024, example: '#ff0000' })
  value: string | null;
}
