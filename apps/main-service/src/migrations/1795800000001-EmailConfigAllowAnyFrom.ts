import { MigrationInterface, QueryRunner } from 'typeorm';

/** An e-mail configuration may allow any From address; by default (and for existing ones) only its own address and domain. */
export class EmailConfigAllowAnyFrom1795800000001 implements MigrationInterface {
  name = 'EmailConfigAllowAnyFrom1795800000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `message_email_config` ADD `allow_any_from_address` tinyint NOT NULL DEFAULT 0');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `message_email_config` DROP COLUMN `allow_any_from_address`');
  }
}
