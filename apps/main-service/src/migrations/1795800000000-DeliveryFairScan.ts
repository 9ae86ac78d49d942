import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dispatcher takes turns among tenants: its scan indexes gain the tenant (the tenants with PENDING
 * messages, then each one's oldest first, both from the index), and the claims in force are counted per
 * tenant (the per-tenant cap) from an index on claimed_until.
 */
export class DeliveryFairScan1795800000000 implements MigrationInterface {
  name = 'DeliveryFairScan1795800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await this.scanIndexes(queryRunner, '`status`, `delete_time`, `tenant_id`, `created_time`');
    await queryRunner.query('CREATE INDEX `idx_message_delivery_claimed_until` ON `message_delivery` (`claimed_until`, `tenant_id`)');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX `idx_message_delivery_claimed_until` ON `message_delivery`');
    await this.scanIndexes(queryRunner, '`status`, `delete_time`, `created_time`');
  }

  private async scanIndexes(queryRunner: QueryRunner, columns: string): Promise<void> {
    for (const table of ['email', 'sms']) {
      await queryRunner.query(`DROP INDEX \`idx_${table}_dispatch\` ON \`message_${table}\``);
      await queryRunner.query(`CREATE INDEX \`idx_${table}_dispatch\` ON \`message_${table}\` (${columns})`);
    }
  }
}
