import { ClientId, Text } from '@app/common';
import { NamedSortedFields } from '../shared/named-sorted';

export class ValueSetTableSave extends NamedSortedFields {
  @ClientId()
  valueSetTableId?: string;

  @Text({ max: 64, required: true, key: true, example: 'shift' })
  valueSetTypeCode: string;

  @Text({ max: 64, required: true, key: true, example: '1' })
  row: string;

  @Text({ max: 128, required: true, key: true, example: 'start' })
  key: string;

  @Text({ max: 1024, example: '08:00' })
  value?: string | null;
}
