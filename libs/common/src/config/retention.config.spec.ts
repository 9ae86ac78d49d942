import { readConfig } from './environment';
import { RetentionConfig } from './retention.config';

/** docs/configuration.md: the retention variables, their defaults, and refusals that name the variable. */
describe('RetentionConfig', () => {
  it('keeps deleted records unless PURGE_DELETED_AFTER_DAYS is set; passes every 5 minutes, 1000 rows a DELETE, 100 ms apart, 60 s at most', () => {
    expect({ ...readConfig(RetentionConfig, {}) }).toEqual({
      purgeDeletedAfterDays: undefined,
      intervalSeconds: 300,
      batchRows: 1000,
      batchPauseMs: 100,
      passSeconds: 60,
    });
  });

  it('reads every variable', () => {
    const config = readConfig(RetentionConfig, {
      PURGE_DELETED_AFTER_DAYS: '90',
      RETENTION_INTERVAL_SECONDS: '60',
      RETENTION_BATCH_ROWS: '500',
      RETENTION_BATCH_PAUSE_MS: '0',
      RETENTION_PASS_SECONDS: '20',
    });
    expect([config.purgeDeletedAfterDays, config.intervalMs, config.batchRows, config.batchPauseMs, config.passMs]).toEqual([
      90, 60_000, 500, 0, 20_000,
    ]);
  });

  it.each([
    ['PURGE_DELETED_AFTER_DAYS', '0'],
    ['PURGE_DELETED_AFTER_DAYS', '1.5'],
    ['PURGE_DELETED_AFTER_DAYS', 'forever'],
    ['PURGE_DELETED_AFTER_DAYS', '36501'],
    ['RETENTION_INTERVAL_SECONDS', '5'],
    ['RETENTION_BATCH_ROWS', '10001'],
    ['RETENTION_BATCH_PAUSE_MS', '-1'],
    ['RETENTION_PASS_SECONDS', '0'],
  ])('refuses %s=%s by name', (name, value) => {
    expect(() => readConfig(RetentionConfig, { [name]: value })).toThrow(name);
  });
});
