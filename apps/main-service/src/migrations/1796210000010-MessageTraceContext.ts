import { MigrationInterface, QueryRunner } from 'typeorm';

/** E-mails and SMS keep the W3C trace context of the request that last wrote them (null without tracing): their delivery attempts continue it. */
export class MessageTraceContext1796210000010 implements MigrationInterface {
  name = 'MessageTraceContext1796210000010';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `message_email` ADD `trace_context` varchar(640) NULL');
    await queryRunner.query('ALTER TABLE `message_sms` ADD `trace_context` varchar(640) NULL');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `message_sms` DROP COLUMN `trace_context`');
    await queryRunner.query('ALTER TABLE `message_email` DROP COLUMN `trace_context`');
  }
}
