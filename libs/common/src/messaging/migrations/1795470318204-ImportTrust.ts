import { MigrationInterface, QueryRunner } from 'typeorm';
import { importDigest } from '../import-digest';

/**
 * The import consumer applies only batches the API created: import_batch keeps the items' digest, and
 * messages that match no batch are recorded apart (import_rejection). The outbox gets an index for one
 * tenant's backlog. Batches still PENDING get their digest from their outbox row (kept a day after it
 * was sent), so an upgrade does not strand them. MessagingModule's tables: one of MESSAGING_MIGRATIONS.
 */
export class ImportTrust1795470318204 implements MigrationInterface {
  name = 'ImportTrust1795470318204';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`import_rejection\` (\`id\` int NOT NULL AUTO_INCREMENT, \`topic\` varchar(128) NOT NULL, \`message_key\` varchar(64) NOT NULL, \`claimed_batch_id\` varchar(64) NULL, \`claimed_tenant_id\` varchar(64) NULL, \`reason\` varchar(255) NOT NULL, \`received_time\` bigint NOT NULL, PRIMARY KEY (\`id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(`ALTER TABLE \`import_batch\` ADD \`payload_digest\` varchar(64) NULL`);
    await queryRunner.query(`CREATE INDEX \`idx_outbox_backlog\` ON \`outbox_message\` (\`status\`, \`topic\`, \`message_key\`)`);
    await this.digestPendingBatches(queryRunner);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`idx_outbox_backlog\` ON \`outbox_message\``);
    await queryRunner.query(`ALTER TABLE \`import_batch\` DROP COLUMN \`payload_digest\``);
    await queryRunner.query(`DROP TABLE \`import_rejection\``);
  }

  /** One payload in memory at a time: a batch can be megabytes. */
  private async digestPendingBatches(queryRunner: QueryRunner): Promise<void> {
    const pending: { batchId: string; topic: string; createdTime: string }[] = await queryRunner.query(
      `SELECT \`batch_id\` AS batchId, \`topic\`, \`created_time\` AS createdTime FROM \`import_batch\` WHERE \`status\` = 'PENDING' AND \`payload_digest\` IS NULL`,
    );
    if (!pending.length) return;
    const topics = new Map(pending.map((b) => [b.batchId, b.topic]));
    const since = Math.min(...pending.map((b) => Number(b.createdTime)));
    const rows: { seq: number }[] = await queryRunner.query(
      `SELECT \`seq\` FROM \`outbox_message\` WHERE \`created_time\` >= ? AND \`topic\` IN (?) ORDER BY \`seq\``,
      [since, [...new Set(topics.values())]],
    );
    for (const { seq } of rows) {
      const [row]: { topic: string; payload: string }[] = await queryRunner.query(
        `SELECT \`topic\`, \`payload\` FROM \`outbox_message\` WHERE \`seq\` = ?`,
        [seq],
      );
      let message: { batchId?: unknown; items?: unknown };
      try {
        message = JSON.parse(row.payload);
      } catch {
        continue;
      }
      if (typeof message?.batchId !== 'string' || topics.get(message.batchId) !== row.topic || !Array.isArray(message.items)) continue;
      await queryRunner.query(`UPDATE \`import_batch\` SET \`payload_digest\` = ? WHERE \`batch_id\` = ? AND \`payload_digest\` IS NULL`, [
        importDigest(message.items),
        message.batchId,
      ]);
    }
  }
}
