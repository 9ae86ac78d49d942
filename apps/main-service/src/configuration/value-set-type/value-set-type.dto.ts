import { ClientId, Text } from '@app/common';
import { NamedSortedFields } from '../shared/named-sorted';

export class ValueSetTypeSave extends NamedSortedFields {
  @ClientId()
  valueSetTypeId?: string;

  @Text({ max: 64, required: true, key: true, example: 'priority' })
  valueSetTypeCode: string;

  @Text({ max: 500, example: 'Task priorities' })
  remark?: string | null;
}
