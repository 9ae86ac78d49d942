/**
 * An app on in-memory SQLite opens a copy of the run's schema image (sqlite-template.ts) instead of building its
 * schema: the copy must hold exactly what the app builds for itself (synchronize, the derived indexes, and the
 * live-count triggers it makes on a record table's first use), and nothing else. SQLite only.
 */
import { DataSource } from 'typeorm';
import { AppModule as DeviceAppModule } from '../../apps/device-service/src/app.module';
import { DEVICE_SERVICE } from '../../apps/device-service/src/device-service.manifest';
import { HISTORY_TABLE } from '../../libs/common/src/persistence/history-sql';
import { openingFrom, preparedInMemorySqlite } from '../../libs/common/src/persistence/prepared-sqlite';
import { usingMysql } from './database';
import { countEveryRecordTable, recordTablesOf } from './sqlite-template';
import { MAIN_SERVICE_UNDER_TEST, ServiceUnderTest, startApp, TestApp } from './test-app';

const SERVICES: [string, ServiceUnderTest][] = [
  ['main-service', MAIN_SERVICE_UNDER_TEST],
  ['device-service', { module: DeviceAppModule, service: DEVICE_SERVICE }],
];

interface SchemaRow {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

const schemaOf = (dataSource: DataSource): Promise<SchemaRow[]> =>
  dataSource.query('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name');

/** The row count of each table of a service's image, opened as it is: the image carries a schema and no rows. */
async function rowsOfImage(name: string): Promise<Record<string, number>> {
  const image = new DataSource({ type: 'better-sqlite3', database: ':memory:', driver: openingFrom(preparedInMemorySqlite(name)!) });
  await image.initialize();
  try {
    const tables = (await schemaOf(image)).filter((row) => row.type === 'table' && !row.name.startsWith('sqlite_'));
    const counts: Record<string, number> = {};
    for (const { name: table } of tables) counts[table] = Number((await image.query(`SELECT COUNT(*) AS n FROM "${table}"`))[0].n);
    return counts;
  } finally {
    await image.destroy();
  }
}

(usingMysql() ? describe.skip : describe).each(SERVICES)('%s on in-memory SQLite', (name, target) => {
  let built: TestApp;
  let copied: TestApp;
  beforeAll(async () => {
    built = await startApp({}, { target, buildSchema: true });
    copied = await startApp({}, { target });
  });
  afterAll(async () => {
    await built?.close();
    await copied?.close();
  });

  it('the copy holds the schema the app builds for itself: tables, indexes, every record table’s triggers and the history counts’', async () => {
    expect(preparedInMemorySqlite(name)).toBeDefined();
    const fromCopy = await schemaOf(copied.dataSource);
    // the triggers the built app makes as each record table is first used
    await countEveryRecordTable(built.dataSource);
    const fromBuild = await schemaOf(built.dataSource);
    expect(fromCopy).toEqual(fromBuild);
    const triggers = fromCopy.filter((row) => row.type === 'trigger').map((row) => row.tbl_name);
    expect([...new Set(triggers)].sort()).toEqual([...recordTablesOf(copied.dataSource), HISTORY_TABLE].sort());
    expect(fromCopy.filter((row) => row.type === 'index').length).toBeGreaterThan(recordTablesOf(copied.dataSource).length);
  });

  it('the app finds its triggers in the copy as it makes them: its first use of each table changes nothing', async () => {
    const before = await schemaOf(copied.dataSource);
    await countEveryRecordTable(copied.dataSource);
    expect(await schemaOf(copied.dataSource)).toEqual(before);
  });

  it('the image carries no rows, and each app has a copy of its own', async () => {
    const rows = await rowsOfImage(name);
    expect(Object.keys(rows).length).toBeGreaterThan(recordTablesOf(copied.dataSource).length);
    expect(Object.entries(rows).filter(([, n]) => n > 0)).toEqual([]);
    const other = await startApp({}, { target });
    try {
      await copied.dataSource.query(`CREATE TABLE only_in_one_copy (x INTEGER)`);
      const names = async (t: TestApp) => (await schemaOf(t.dataSource)).map((row) => row.name);
      expect(await names(copied)).toContain('only_in_one_copy');
      expect(await names(other)).not.toContain('only_in_one_copy');
    } finally {
      await copied.dataSource.query(`DROP TABLE only_in_one_copy`);
      await other.close();
    }
  });
});
