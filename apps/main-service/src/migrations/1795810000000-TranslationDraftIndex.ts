import { MigrationInterface, QueryRunner } from 'typeorm';

/** The drafts of a tenant as one index range: the draft filter, and saveMissing's count against its cap. */
export class TranslationDraftIndex1795810000000 implements MigrationInterface {
  name = 'TranslationDraftIndex1795810000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX \`idx_translation_draft\` ON \`configuration_translation\` (\`tenant_id\`, \`delete_time\`, \`draft\`, \`created_time\`)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`idx_translation_draft\` ON \`configuration_translation\``);
  }
}
