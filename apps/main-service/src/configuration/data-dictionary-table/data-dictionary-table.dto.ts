import { Int, saveDtoOf } from '@app/common';
import { DataDictionaryTable } from './data-dictionary-table.entity';

/** saveOrUpdate: a save body that may also carry the `revision` the caller last read. */
export class DataDictionaryTableSaveOrUpdate extends saveDtoOf(DataDictionaryTable) {
  @Int({
    min: 1,
    example: 1,
    description:
      'When given, must equal the stored revision of the record that would be updated (else status 409); ignored when a record is created',
  })
  revision?: number;
}
