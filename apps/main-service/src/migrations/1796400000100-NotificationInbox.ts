import { createHistoryTriggers } from '@app/common';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The signed-in user's inbox: the role a ROLE notification is for, and whether a user archived a notification
 * (existing rows are not archived). The inbox reads notifications on the status filter's index and each
 * caller's row on notification-user's unique key, so no index is added. The history triggers are made again
 * from the tables' columns, so the new ones are recorded too.
 */
export class NotificationInbox1796400000100 implements MigrationInterface {
  name = 'NotificationInbox1796400000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `message_notification` ADD `target_role` varchar(64) NULL');
    await queryRunner.query('ALTER TABLE `message_notification_user` ADD `archived` tinyint NOT NULL DEFAULT 0');
    for (const table of ['message_notification', 'message_notification_user']) await createHistoryTriggers(queryRunner, table);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `message_notification_user` DROP COLUMN `archived`');
    await queryRunner.query('ALTER TABLE `message_notification` DROP COLUMN `target_role`');
    for (const table of ['message_notification', 'message_notification_user']) await createHistoryTriggers(queryRunner, table);
  }
}
