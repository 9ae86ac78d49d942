import { Field } from '@app/common';
import { Entity, Index } from 'typeorm';
import { NamedSortedRecord } from '../fields/named-sorted';

@Entity('configuration_value_set')
@Index('uk_value_set_key', ['tenantId', 'valueSetTypeCode', 'value', 'deleteTime'], { unique: true })
@Index('idx_value_set_sort', ['tenantId', 'deleteTime', 'sort', 'createdTime'])
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
