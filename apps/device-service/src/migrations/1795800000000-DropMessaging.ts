import { KafkaOutbox1795388775655 } from '@app/common';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { ImportTrust1795470318204 } from '@app/common/messaging/migrations/1795470318204-ImportTrust';

/**
 * device-service has no messaging: the outbox and import tables its first migrations created were never written
 * (it has no asynchronous import). Replicas of the previous release still poll the outbox until they are replaced
 * and log that its table is gone; nothing else reads it. `down` creates them again as they were.
 */
export class DropMessaging1795800000000 implements MigrationInterface {
  name = 'DropMessaging1795800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['import_rejection', 'outbox_lease', 'outbox_message', 'import_batch'])
      await queryRunner.query(`DROP TABLE IF EXISTS \`${table}\``);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // as InitialSchema created them, then as KafkaOutbox and ImportTrust changed them
    await queryRunner.query(
      `CREATE TABLE \`import_batch\` (\`batch_id\` varchar(32) NOT NULL, \`tenant_id\` varchar(64) NOT NULL, \`topic\` varchar(128) NOT NULL, \`created_username\` varchar(128) NOT NULL, \`status\` varchar(16) NOT NULL, \`item_count\` int NOT NULL, \`applied_count\` int NOT NULL DEFAULT '0', \`rejected\` text NULL, \`created_time\` bigint NOT NULL, \`finished_time\` bigint NULL, INDEX \`idx_import_batch_tenant\` (\`tenant_id\`, \`created_time\`), PRIMARY KEY (\`batch_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`outbox_message\` (\`seq\` int NOT NULL AUTO_INCREMENT, \`topic\` varchar(128) NOT NULL, \`message_key\` varchar(64) NOT NULL, \`payload\` text NOT NULL, \`status\` varchar(16) NOT NULL, \`attempts\` int NOT NULL DEFAULT '0', \`next_attempt_time\` bigint NOT NULL DEFAULT '0', \`created_time\` bigint NOT NULL, \`sent_time\` bigint NULL, INDEX \`idx_outbox_pending\` (\`status\`, \`seq\`), PRIMARY KEY (\`seq\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await new KafkaOutbox1795388775655().up(queryRunner);
    await new ImportTrust1795470318204().up(queryRunner);
  }
}
