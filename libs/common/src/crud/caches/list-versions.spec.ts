/**
 * The write counters (list-versions.ts): an increment that fails while the database cannot take it is tried again
 * until it succeeds, so other replicas see the write as soon as the database is back; failures during the outage
 * share one retry, and a closed data source ends it. The outage is real: the counters' table is renamed away.
 * Against the real database of the leg (in-memory SQLite, or MySQL/MariaDB when DB_URL is set).
 */
import { DataSource } from 'typeorm';
import { createTestDatabase, fixtureDataSource, TestDatabase } from '../../../../../test/support/database';
import { ListVersion } from './list-version.entity';
import { BUMP_RETRY_FIRST_MS, ListVersions } from './list-versions';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ListVersions', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let versions: ListVersions;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await fixtureDataSource(database, [ListVersion]);
  });
  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database?.drop();
  });
  beforeEach(() => {
    versions = new ListVersions(dataSource);
  });

  const away = () => dataSource.query('ALTER TABLE list_version RENAME TO list_version_away');
  const back = () => dataSource.query('ALTER TABLE list_version_away RENAME TO list_version');
  /** Waits until the tenant's counter reads `expected` (at most `withinMs`), and answers what it read last. */
  async function counterOnceSettled(tenant: string, expected: string, withinMs = 3_000): Promise<string> {
    const until = Date.now() + withinMs;
    let read = '';
    while (Date.now() < until && (read = (await versions.versionsOf('r', [tenant]))[0]) !== expected) await sleep(20);
    return read;
  }

  it('counts each write', async () => {
    await versions.bump('r', 'counts');
    await versions.bump('r', 'counts');
    expect(await versions.versionsOf('r', ['counts', 'never'])).toEqual(['2', '0']);
  });

  it('a failed increment is made once the database takes it again, without the writer waiting', async () => {
    await versions.bump('r', 'outage');
    await away();
    try {
      await versions.bump('r', 'outage'); // answers although it failed
      await versions.bump('r', 'outage');
      await sleep(BUMP_RETRY_FIRST_MS * 3); // retries fail meanwhile
    } finally {
      await back();
    }
    // failures during the outage share one retry: the counter moves on, whatever the number of writes
    expect(await counterOnceSettled('outage', '2')).toBe('2');
  });

  it('stops retrying once the data source is closed', async () => {
    const own = await createTestDatabase();
    const closed = await fixtureDataSource(own, [ListVersion]);
    try {
      await closed.query('DROP TABLE list_version');
      const queries = jest.spyOn(closed, 'query');
      await new ListVersions(closed).bump('r', 'closed'); // fails: a retry is due
      await sleep(BUMP_RETRY_FIRST_MS * 3);
      const tried = queries.mock.calls.length;
      expect(tried).toBeGreaterThanOrEqual(2); // the write, then its retries
      await closed.destroy();
      await sleep(BUMP_RETRY_FIRST_MS * 8);
      expect(queries.mock.calls.length).toBeLessThanOrEqual(tried + 1); // at most one was under way at the close
    } finally {
      if (closed.isInitialized) await closed.destroy();
      await own.drop();
    }
  });
});
