import { addWriteStampColumns, createHistoryTriggers, dropHistoryTriggers, dropWriteStampColumns, recordTables } from '@app/common';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The secret columns of main-service's record tables: their entries name them, masked, and never store a value. */
const SECRET_COLUMNS: Record<string, string[]> = {
  message_email_config: ['password'],
  message_sms_config: ['access_key_secret'],
};

/** Every main-service record table stamps who writes (writer, request, trace) and records each change in record_history. */
export class RecordHistoryTriggers1796400000010 implements MigrationInterface {
  name = 'RecordHistoryTriggers1796400000010';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of await recordTables(queryRunner)) {
      await addWriteStampColumns(queryRunner, table);
      await createHistoryTriggers(queryRunner, table, SECRET_COLUMNS[table] ?? []);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of await recordTables(queryRunner)) {
      await dropHistoryTriggers(queryRunner, table);
      await dropWriteStampColumns(queryRunner, table);
    }
  }
}
