import { ClientId, Text } from '@app/common';
import { NamedSortedFields } from '../shared/named-sorted';

export class DataDictionaryMapSave extends NamedSortedFields {
  @ClientId()
  dataDictionaryMapId?: string;

  @Text({ max: 64, required: true, key: true, example: 'gender' })
  dataDictionaryTypeCode: string;

  @Text({ max: 64, required: true, key: true, example: 'male' })
  dataDictionaryCode: string;

  @Text({ max: 128, required: true, key: true, example: 'icon' })
  key: string;

  @Text({ max: 1024, example: 'mdi-gender-male' })
  value?: string | null;
}
