import { ClientId, Text } from '@app/common';
import { NamedSortedFields } from '../shared/named-sorted';

export class DataDictionarySave extends NamedSortedFields {
  @ClientId()
  dataDictionaryId?: string;

  @Text({ max: 64, required: true, key: true, example: 'gender' })
  dataDictionaryTypeCode: string;

  @Text({ max: 64, required: true, key: true, example: 'male' })
  dataDictionaryCode: string;

  @Text({ max: 1024, example: '1' })
  value?: string | null;

  @Text({ max: 500, example: 'Shown in the gender selector' })
  remark?: string | null;
}
