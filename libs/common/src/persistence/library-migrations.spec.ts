import type { MigrationInterface } from 'typeorm';
import { COMMON_MIGRATIONS, mergeMigrations, MESSAGING_MIGRATIONS } from './library-migrations';

const migration = (name: string) =>
  ({
    [name]: class implements MigrationInterface {
      async up() {}
      async down() {}
    },
  })[name];

describe('mergeMigrations', () => {
  it("interleaves an app's migrations with the library's by the timestamp their names end with", () => {
    const [first, middle, last] = [
      migration('AppSchema1000000000000'),
      migration('AppIndex1795600000000'),
      migration('AppLater1999999999999'),
    ];
    const merged = mergeMigrations([first, middle, last], COMMON_MIGRATIONS, MESSAGING_MIGRATIONS);
    expect(merged.map((m) => m.name)).toEqual([
      'AppSchema1000000000000',
      'KafkaOutbox1795388775655',
      'ImportTrust1795470318204',
      'AppIndex1795600000000',
      'ReplicaState1795700000000',
      'ReplicaLease1795900000000',
      'LiveCounts1795910000000',
      'WriteCounts1796000000000',
      'FilterCounts1796100000000',
      'OutboxTraceContext1796210000000',
      'DeletedCounts1796300000000',
      'RecordHistory1796400000000',
      'CountSlotsPerNode1796400000200',
      'HistoryCounts1796400000300',
      'HistoryTimeIndex1796400000400',
      'AppLater1999999999999',
    ]);
  });

  it('refuses a name without a timestamp and two migrations of one timestamp', () => {
    expect(() => mergeMigrations([migration('NoTimestamp')])).toThrow('NoTimestamp');
    expect(() => mergeMigrations([migration('Mine1795700000000')], COMMON_MIGRATIONS)).toThrow('share one timestamp');
  });
});
