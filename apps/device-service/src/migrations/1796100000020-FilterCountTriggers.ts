import { createLiveCountTriggers, recordTables } from '@app/common';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The device-service record tables' exact filters counted per value (filter_count) by their live-count triggers,
 * started from the rows present; a table not listed (or a filter not listed: text longer than 255 characters)
 * keeps counting its matching rows. Written out, not read from the resources: a migration does what it did when
 * it was written.
 */
const COUNTED_FILTERS: Record<string, string[]> = {
  device_data_acquisition_device: ['data_acquisition_device_no'],
  device_data_acquisition_server: ['data_acquisition_server_no'],
};

export class FilterCountTriggers1796100000020 implements MigrationInterface {
  name = 'FilterCountTriggers1796100000020';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of await recordTables(queryRunner)) await createLiveCountTriggers(queryRunner, table, COUNTED_FILTERS[table] ?? []);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // the live and write counts stay; the filter counts left behind are read no more (no trigger lists a column)
    // and go with their table (FilterCounts)
    for (const table of await recordTables(queryRunner)) await createLiveCountTriggers(queryRunner, table);
  }
}
