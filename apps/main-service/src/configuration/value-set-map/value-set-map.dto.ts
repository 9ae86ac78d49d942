import { ClientId, Text } from '@app/common';
import { NamedSortedFields } from '../shared/named-sorted';

export class ValueSetMapSave extends NamedSortedFields {
  @ClientId()
  valueSetMapId?: string;

  @Text({ max: 64, required: true, key: true, example: 'priority' })
  valueSetTypeCode: string;

  @Text({ max: 128, required: true, key: true, example: 'high' })
  key: string;

  @Text({ max: 1024, example: '#ff0000' })
  value?: string | null;
}
