import { ClientId, Int, Text } from '@app/common';
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

/** saveOrUpdate: a save body that may also carry the `revision` the caller last read. */
export class DataDictionaryTableSaveOrUpdate extends DataDictionaryTableSave {
  @Int({ min: 1, example: 1, description: 'When given, must equal the stored revision of the record that would be updated (else status 409); ignored when a record is created' })
  revision?: number;
}
