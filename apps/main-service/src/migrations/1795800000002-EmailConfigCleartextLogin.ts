import { MigrationInterface, QueryRunner } from 'typeorm';

/** E-mail configurations: `allow_cleartext_login`, off for existing ones too (a login then needs TLS, see docs/messages.md). */
export class EmailConfigCleartextLogin1795800000002 implements MigrationInterface {
  name = 'EmailConfigCleartextLogin1795800000002';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`message_email_config\` ADD \`allow_cleartext_login\` tinyint NOT NULL DEFAULT 0`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`message_email_config\` DROP COLUMN \`allow_cleartext_login\``);
  }
}
