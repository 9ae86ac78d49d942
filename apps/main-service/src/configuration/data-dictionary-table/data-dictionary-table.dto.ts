import { changeDtoOf, Revision } from '@app/common';
import { DataDictionaryTable } from './data-dictionary-table.entity';

/**
 * saveOrUpdate: a save body that may also carry the `revision` the caller last read. No create defaults
 * (changeDtoOf): the call may update, and a generated client would send a default as a value.
 */
export class DataDictionaryTableSaveOrUpdate extends changeDtoOf(DataDictionaryTable) {
  @Revision(
    'When given, must equal the stored revision of the record that would be updated (else status 409); ignored when a record is created',
  )
  revision?: number;
}
