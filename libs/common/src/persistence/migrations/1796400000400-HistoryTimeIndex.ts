import { MigrationInterface, QueryRunner } from 'typeorm';
import { HISTORY_TABLE } from '../history-sql';

/**
 * A history page with a time bound reads the tenant's entries in that time on one index that also holds every other
 * filter's column (history-query.ts), instead of walking the tenant's newer entries. Shared-library table.
 */
export class HistoryTimeIndex1796400000400 implements MigrationInterface {
  name = 'HistoryTimeIndex1796400000400';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX \`ix_record_history_tenant_time\` ON \`${HISTORY_TABLE}\` (\`tenant_id\`, \`time\`, \`table_name\`, \`action\`, \`username\`)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`ix_record_history_tenant_time\` ON \`${HISTORY_TABLE}\``);
  }
}
