import { addWriteStampColumns, dropWriteStampColumns, recordTables } from '@app/common';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The registry's record tables get the columns every record's writes stamp (its resources keep no history). */
export class WriteStampColumns1796400000020 implements MigrationInterface {
  name = 'WriteStampColumns1796400000020';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of await recordTables(queryRunner)) await addWriteStampColumns(queryRunner, table);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of await recordTables(queryRunner)) await dropWriteStampColumns(queryRunner, table);
  }
}
