import { readConfig } from '@app/common';
import { SnapshotRetentionConfig } from './snapshot-retention.config';

describe('SnapshotRetentionConfig', () => {
  it('keeps snapshots unless SNAPSHOT_RETENTION_DAYS is set', () => {
    expect(readConfig(SnapshotRetentionConfig, {}).snapshotRetentionDays).toBeUndefined();
    expect(readConfig(SnapshotRetentionConfig, { SNAPSHOT_RETENTION_DAYS: '30' }).snapshotRetentionDays).toBe(30);
  });

  it.each(['0', '7.5', 'week', '36501'])('refuses SNAPSHOT_RETENTION_DAYS=%s by name', (value) => {
    expect(() => readConfig(SnapshotRetentionConfig, { SNAPSHOT_RETENTION_DAYS: value })).toThrow('SNAPSHOT_RETENTION_DAYS');
  });
});
