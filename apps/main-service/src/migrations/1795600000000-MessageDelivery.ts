import { MigrationInterface, QueryRunner } from 'typeorm';

/** The dispatcher's scan index and its claims and backoff of e-mails and SMS in delivery (one row per message being delivered). */
export class MessageDelivery1795600000000 implements MigrationInterface {
  name = 'MessageDelivery1795600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // the dispatcher's scan across tenants: PENDING live messages, oldest first
    await queryRunner.query(`CREATE INDEX \`idx_email_dispatch\` ON \`message_email\` (\`status\`, \`delete_time\`, \`created_time\`)`);
    await queryRunner.query(`CREATE INDEX \`idx_sms_dispatch\` ON \`message_sms\` (\`status\`, \`delete_time\`, \`created_time\`)`);
    await queryRunner.query(
      `CREATE TABLE \`message_delivery\` (\`channel\` varchar(16) NOT NULL, \`tenant_id\` varchar(64) NOT NULL, \`message_id\` varchar(32) NOT NULL, \`next_attempt_time\` bigint NOT NULL, \`claimed_by\` varchar(128) NULL, \`claimed_until\` bigint NOT NULL, INDEX \`idx_message_delivery_claimed_by\` (\`claimed_by\`), PRIMARY KEY (\`channel\`, \`tenant_id\`, \`message_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE \`message_delivery\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_dispatch\` ON \`message_sms\``);
    await queryRunner.query(`DROP INDEX \`idx_email_dispatch\` ON \`message_email\``);
  }
}
