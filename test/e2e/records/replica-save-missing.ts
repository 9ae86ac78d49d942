/**
 * The saveMissing limit counted in the database: two replicas over one database (one SQLite file, or
 * one MySQL/MariaDB database with DB_URL) count one client address against the same window.
 */
import { WindowCounter } from '@app/common';
import { SharedThrottlerStorage } from '../../../apps/main-service/src/configuration/translation/save-missing-limit';
import { createSharedDatabase, TestDatabase } from '../../support/database';
import { fakeClock } from '../../support/fake-clock';
import { CONFIG, startApp, TestApp } from '../../support/test-app';

const LIMIT = 4;
const MINUTE = 60_000;

describe('the saveMissing limit across two replicas', () => {
  let database: TestDatabase;
  let replicas: TestApp[] = [];
  let storages: SharedThrottlerStorage[];

  beforeAll(async () => {
    database = await createSharedDatabase();
    const env = { SAVE_MISSING_RATE_LIMIT: String(LIMIT) };
    replicas = [await startApp(env, { shared: database }), await startApp(env, { shared: database })];
    storages = replicas.map((t) => new SharedThrottlerStorage(new WindowCounter(t.dataSource)));
  });

  afterAll(async () => {
    for (const t of replicas) await t.close();
    await database?.drop();
  });
  afterEach(() => jest.useRealTimers());

  const hit = (replica: number, key: string, ttl = MINUTE) => storages[replica].increment(key, ttl, LIMIT, ttl, 'default');

  it("counts one address's calls through both replicas against one limit", async () => {
    // the clock stands still: the window's minute cannot pass while a busy machine makes the calls
    fakeClock();
    const counted = [];
    for (let i = 0; i < LIMIT; i++) counted.push(await hit(i % 2, 'address-1'));
    expect(counted.map((c) => [c.totalHits, c.isBlocked])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, false],
    ]);
    for (const replica of [0, 1]) {
      const refused = await hit(replica, 'address-1');
      expect(refused).toMatchObject({ isBlocked: true });
      expect(refused.timeToBlockExpire).toBe(60);
    }
    expect(await hit(1, 'address-2')).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('concurrent calls through both replicas are each counted once', async () => {
    const all = await Promise.all(Array.from({ length: 10 }, (_, i) => hit(i % 2, 'address-3')));
    expect(all.map((c) => c.totalHits).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(all.filter((c) => c.isBlocked)).toHaveLength(10 - LIMIT);
  });

  it('a new window starts once the last one has ended, on either replica', async () => {
    const clock = fakeClock();
    for (let i = 0; i <= LIMIT; i++) await hit(0, 'address-4', 300);
    expect(await hit(1, 'address-4', 300)).toMatchObject({ isBlocked: true });
    clock.advance(350);
    expect(await hit(1, 'address-4', 300)).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('saveMissing calls of one address through both replicas get HTTP 429 once the shared limit is reached', async () => {
    const ns = `replicas${Date.now().toString(36)}`;
    const report = (replica: number, key: string) =>
      replicas[replica]
        .http()
        .post(`${CONFIG}/translation/saveMissing?lng=en&ns=${ns}`)
        .send({ [key]: 'v' });
    const statuses = [];
    for (let i = 0; i < LIMIT + 2; i++) statuses.push((await report(i % 2, `k${i}`)).status);
    expect(statuses).toEqual([...new Array(LIMIT).fill(200), 429, 429]);
  });
});
