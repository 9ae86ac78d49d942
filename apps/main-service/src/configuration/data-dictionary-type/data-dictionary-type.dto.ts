import { ClientId, Text } from '@app/common';
import { NamedSortedFields } from '../shared/named-sorted';

export class DataDictionaryTypeSave extends NamedSortedFields {
  @ClientId()
  dataDictionaryTypeId?: string;

  @Text({ max: 64, required: true, key: true, example: 'gender' })
  dataDictionaryTypeCode: string;

  @Text({ max: 500, example: 'Genders' })
  remark?: string | null;
}
