import { MigrationInterface, QueryRunner } from 'typeorm';
import { HISTORY_TABLE } from '../history-sql';

/**
 * Every change of a record (history-sql.ts), written by triggers that a service's own migration gives its record
 * tables (createHistoryTriggers), with the columns they read (addWriteStampColumns). Shared-library table: every
 * service registers this.
 */
export class RecordHistory1796400000000 implements MigrationInterface {
  name = 'RecordHistory1796400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`${HISTORY_TABLE}\` (\`history_id\` bigint NOT NULL AUTO_INCREMENT, \`tenant_id\` varchar(64) NOT NULL, ` +
        `\`table_name\` varchar(64) NOT NULL, \`record_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`action\` varchar(8) NOT NULL, ` +
        `\`username\` varchar(128) NOT NULL, \`time\` bigint NOT NULL, \`request_id\` varchar(64) NULL, \`trace_id\` varchar(32) NULL, ` +
        `\`changed_fields\` longtext NOT NULL, \`changed_values\` longtext NULL, ` +
        `INDEX \`ix_record_history_time\` (\`time\`), ` +
        `INDEX \`ix_record_history_action\` (\`tenant_id\`, \`action\`, \`history_id\`), ` +
        `INDEX \`ix_record_history_username\` (\`tenant_id\`, \`username\`, \`history_id\`), ` +
        `INDEX \`ix_record_history_tenant\` (\`tenant_id\`, \`history_id\`), ` +
        `INDEX \`ix_record_history_table\` (\`tenant_id\`, \`table_name\`, \`history_id\`), ` +
        `INDEX \`ix_record_history_record\` (\`tenant_id\`, \`table_name\`, \`record_id\`, \`history_id\`), ` +
        `PRIMARY KEY (\`history_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE \`${HISTORY_TABLE}\``);
  }
}
