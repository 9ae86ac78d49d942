import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each outbox row keeps the W3C trace context of the request that stored it (null without tracing), so the
 * relay sends it in that trace (docs/operations.md "Tracing"). MessagingModule's tables: one of MESSAGING_MIGRATIONS.
 */
export class OutboxTraceContext1796210000000 implements MigrationInterface {
  name = 'OutboxTraceContext1796210000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `outbox_message` ADD `trace_context` varchar(640) NULL');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `outbox_message` DROP COLUMN `trace_context`');
  }
}
