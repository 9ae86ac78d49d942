import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * State fields a caller need not know get defaults on create: e-mail/SMS status PENDING with sendTime null
 * until sent, SMS package status ACTIVE, notification level INFO, targetType ALL, status DRAFT with
 * publishTime null until published.
 */
export class MessageCreateDefaults1795520000000 implements MigrationInterface {
  name = 'MessageCreateDefaults1795520000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`message_email\` MODIFY \`status\` varchar(32) NOT NULL DEFAULT 'PENDING', MODIFY \`send_time\` bigint NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE \`message_sms\` MODIFY \`status\` varchar(32) NOT NULL DEFAULT 'PENDING', MODIFY \`send_time\` bigint NULL`,
    );
    await queryRunner.query(`ALTER TABLE \`message_sms_package\` MODIFY \`status\` varchar(32) NOT NULL DEFAULT 'ACTIVE'`);
    await queryRunner.query(
      `ALTER TABLE \`message_notification\` MODIFY \`level\` varchar(32) NOT NULL DEFAULT 'INFO', MODIFY \`target_type\` varchar(32) NOT NULL DEFAULT 'ALL', MODIFY \`status\` varchar(32) NOT NULL DEFAULT 'DRAFT', MODIFY \`publish_time\` bigint NULL`,
    );
  }

  /** Rows created meanwhile without a time get 0 (1970): the NOT NULL columns of before cannot hold null. */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE \`message_notification\` SET \`publish_time\` = 0 WHERE \`publish_time\` IS NULL`);
    await queryRunner.query(
      `ALTER TABLE \`message_notification\` MODIFY \`level\` varchar(32) NOT NULL, MODIFY \`target_type\` varchar(32) NOT NULL, MODIFY \`status\` varchar(32) NOT NULL, MODIFY \`publish_time\` bigint NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE \`message_sms_package\` MODIFY \`status\` varchar(32) NOT NULL`);
    await queryRunner.query(`UPDATE \`message_sms\` SET \`send_time\` = 0 WHERE \`send_time\` IS NULL`);
    await queryRunner.query(`ALTER TABLE \`message_sms\` MODIFY \`status\` varchar(32) NOT NULL, MODIFY \`send_time\` bigint NOT NULL`);
    await queryRunner.query(`UPDATE \`message_email\` SET \`send_time\` = 0 WHERE \`send_time\` IS NULL`);
    await queryRunner.query(`ALTER TABLE \`message_email\` MODIFY \`status\` varchar(32) NOT NULL, MODIFY \`send_time\` bigint NOT NULL`);
  }
}
