import { ClientId, Text } from '@app/common';
import { NamedSortedFields } from '../shared/named-sorted';

export class ValueSetSave extends NamedSortedFields {
  @ClientId()
  valueSetId?: string;

  @Text({ max: 64, required: true, key: true, example: 'priority' })
  valueSetTypeCode: string;

  @Text({ max: 255, required: true, key: true, example: 'high' })
  value: string;

  @Text({ max: 500, example: 'Highest priority' })
  remark?: string | null;
}
