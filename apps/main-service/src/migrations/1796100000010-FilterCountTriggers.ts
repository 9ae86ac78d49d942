import { createLiveCountTriggers, recordTables } from '@app/common';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The main-service record tables' exact filters counted per value (filter_count) by their live-count triggers,
 * started from the rows present; a table not listed (or a filter not listed: text longer than 255 characters)
 * keeps counting its matching rows. Written out, not read from the resources: a migration does what it did when
 * it was written.
 */
const COUNTED_FILTERS: Record<string, string[]> = {
  configuration_data_dictionary: ['data_dictionary_type_code', 'data_dictionary_code'],
  configuration_data_dictionary_map: ['data_dictionary_type_code', 'data_dictionary_code', 'key'],
  configuration_data_dictionary_table: ['data_dictionary_type_code', 'data_dictionary_code', 'row'],
  configuration_data_dictionary_type: ['data_dictionary_type_code'],
  configuration_translation: ['language', 'namespace', 'key', 'draft'],
  configuration_value_set: ['value_set_type_code', 'value'],
  configuration_value_set_map: ['value_set_type_code', 'key'],
  configuration_value_set_table: ['value_set_type_code', 'row'],
  configuration_value_set_type: ['value_set_type_code'],
  message_email_config: ['name', 'enabled', 'host', 'from_address'],
  message_email: ['business_type', 'business_id', 'email_config_id', 'email_template_id', 'from_address', 'status'],
  message_email_template: ['code', 'name', 'enabled', 'content_type', 'language'],
  message_email_template_email_config: ['email_template_id', 'email_config_id'],
  message_notification: [
    'business_type',
    'business_id',
    'notification_template_id',
    'notification_config_id',
    'level',
    'target_type',
    'status',
  ],
  message_notification_config: ['name', 'enabled', 'channel'],
  message_notification_template: ['code', 'name', 'enabled', 'level'],
  message_notification_template_notification_config: ['notification_template_id', 'notification_config_id'],
  message_notification_user: ['notification_id', 'username', 'is_read'],
  message_sms: ['business_type', 'business_id', 'sms_config_id', 'sms_template_id', 'status', 'provider_message_id'],
  message_sms_config: ['name', 'enabled', 'provider', 'access_key_id'],
  message_sms_package: ['name', 'status'],
  message_sms_template: ['code', 'name', 'enabled', 'provider_template_code'],
  message_sms_template_sms_config: ['sms_template_id', 'sms_config_id'],
  snapshot_data_acquisition_box_usage_snap: ['box_no', 'data_acquisition_server_no', 'username'],
  snapshot_data_acquisition_device_claim_snap: ['data_acquisition_device_no', 'username'],
  snapshot_data_acquisition_device_give_back_snap: ['data_acquisition_device_no', 'username', 'condition'],
  snapshot_data_sync_snap: ['data_acquisition_server_no', 'sync_type', 'status'],
  snapshot_device_position_snap: ['device_no', 'device_type'],
  snapshot_device_state_snap: ['device_no', 'device_type', 'state'],
  snapshot_fingerprint_scanner_usage_snap: ['fingerprint_scanner_no', 'data_acquisition_device_no', 'username', 'result'],
  snapshot_nfc_card_usage_snap: ['nfc_card_no', 'data_acquisition_device_no', 'username', 'result'],
};

export class FilterCountTriggers1796100000010 implements MigrationInterface {
  name = 'FilterCountTriggers1796100000010';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of await recordTables(queryRunner)) await createLiveCountTriggers(queryRunner, table, COUNTED_FILTERS[table] ?? []);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // the live and write counts stay; the filter counts left behind are read no more (no trigger lists a column)
    // and go with their table (FilterCounts)
    for (const table of await recordTables(queryRunner)) await createLiveCountTriggers(queryRunner, table);
  }
}
