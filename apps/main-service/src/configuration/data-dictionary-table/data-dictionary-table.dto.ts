import { ClientId, Text } from '@app/common';
import { NamedSortedFields } from '../shared/named-sorted';

export class DataDictionaryTableSave extends NamedSortedFields {
  @ClientId()
  dataDictionaryTableId?: string;

  @Text({ max: 64, required: true, key: true, example: 'region' })
  dataDictionaryTypeCode: string;

  @Text({ max: 64, required: true, key: true, example: 'cn' })
  dataDictionaryCode: string;

  @Text({ max: 64, required: true, key: true, example: '1' })
  row: string;

  @Text({ max: 128, required: true, key: true, example: 'capital' })
  key: string;

  @Text({ max: 1024, example: 'Beijing' })
  value?: string | null;
}
