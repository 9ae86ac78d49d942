import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Kafka transport: the relay lease that lets one replica at a time publish the outbox, and
 * LONGTEXT for batch payloads and rejected rows (TEXT stops at 64 KB; a 10,000-row batch is ~1.5 MB).
 * MODIFY keeps the rows that are there. The tables are MessagingModule's (MESSAGING_ENTITIES): one of
 * MESSAGING_MIGRATIONS, which a service with messaging applies.
 */
export class KafkaOutbox1795388775655 implements MigrationInterface {
  name = 'KafkaOutbox1795388775655';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`outbox_lease\` (\`name\` varchar(64) NOT NULL, \`holder\` varchar(128) NOT NULL, \`expires_time\` bigint NOT NULL, PRIMARY KEY (\`name\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(`ALTER TABLE \`import_batch\` MODIFY \`rejected\` longtext NULL`);
    await queryRunner.query(`ALTER TABLE \`outbox_message\` MODIFY \`payload\` longtext NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`outbox_message\` MODIFY \`payload\` text NOT NULL`);
    await queryRunner.query(`ALTER TABLE \`import_batch\` MODIFY \`rejected\` text NULL`);
    await queryRunner.query(`DROP TABLE \`outbox_lease\``);
  }
}
