import { createDeletedCountTriggers, dropDeletedCountTriggers, recordTables } from '@app/common';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Every main-service record table's logically deleted records counted (deleted_count) for its recycle bin, started from the rows present. */
export class DeletedCountTriggers1796300000010 implements MigrationInterface {
  name = 'DeletedCountTriggers1796300000010';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of await recordTables(queryRunner)) await createDeletedCountTriggers(queryRunner, table);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of await recordTables(queryRunner)) await dropDeletedCountTriggers(queryRunner, table);
  }
}
