import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  createHistoryCountTriggers,
  dropHistoryCountTriggers,
  HISTORY_COUNT_TABLE,
  HISTORY_COUNT_TABLES_SQL,
  HISTORY_WRITER_COUNT_TABLE,
} from '../history-count-sql';

/**
 * A history page's total kept rather than counted: record_history's entries per tenant by table and action, and by
 * writer, kept by triggers on record_history from the entries it has. Shared-library tables: every service registers this.
 */
export class HistoryCounts1796400000300 implements MigrationInterface {
  name = 'HistoryCounts1796400000300';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of HISTORY_COUNT_TABLES_SQL) await queryRunner.query(sql);
    await createHistoryCountTriggers(queryRunner);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await dropHistoryCountTriggers(queryRunner);
    for (const table of [HISTORY_COUNT_TABLE, HISTORY_WRITER_COUNT_TABLE]) await queryRunner.query(`DROP TABLE \`${table}\``);
  }
}
