/**
 * Retention (docs/operations.md "Retention"): logically deleted records go PURGE_DELETED_AFTER_DAYS after
 * their deletion, snapshots SNAPSHOT_RETENTION_DAYS after their main time field, live or not; unset keeps
 * everything. Passes run on one replica at a time, in bounded batches, counted in /metrics, and page
 * totals cached before a pass stop counting the removed rows; device-service purges its own tables.
 * On SQLite, or MySQL/MariaDB with DB_URL.
 */
import { RetentionJob, RetentionPass } from '@app/common';
import { createTestDatabase, TestDatabase } from '../../support/database';
import { createSharedDatabase, startDeviceApp } from '../../support/device-app';
import { metricValue } from '../../support/observability';
import { CONFIG, Envelope, startApp, TestApp } from '../../support/test-app';
import { Claims } from '../../support/tokens';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const SNAPSHOT = '/main-service/main-api/snapshot/device-state-snap';
const SNAPSHOT_TABLE = 'snapshot_device_state_snap';
const DICTIONARY = `${CONFIG}/data-dictionary`;
const DICTIONARY_TABLE = 'configuration_data_dictionary';
/** Both periods, batches of 2 rows without pauses, and page totals only the write versions outdate. */
const RETAINING = {
  PURGE_DELETED_AFTER_DAYS: '30',
  SNAPSHOT_RETENTION_DAYS: '7',
  RETENTION_BATCH_ROWS: '2',
  RETENTION_BATCH_PAUSE_MS: '0',
  PAGE_TOTAL_TTL_MS: '3600000',
};

let counter = 0;
const seed = () => `rt${++counter}x${Date.now().toString(36)}`;
const tenant = (): Claims => ({ tenantId: `ret-${seed()}`, sub: 'alice' });

function ok(res: Envelope): Envelope {
  expect(res).toMatchObject({ httpStatus: 200, status: 200 });
  return res;
}

/** Saves a device-state snapshot taken at `snapTime`; returns its id. */
async function snapshot(t: TestApp, claims: Claims, snapTime: number): Promise<string> {
  const id = seed();
  ok(
    await t.post(
      `${SNAPSHOT}/save`,
      { deviceStateSnapId: id, deviceNo: 'DAD-0001', deviceType: 'DATA_ACQUISITION_DEVICE', state: 'ONLINE', snapTime },
      claims,
    ),
  );
  return id;
}

/** Saves a data dictionary record and, with `deletedAt`, deletes it as of that moment; returns its id. */
async function dictionaryRecord(t: TestApp, claims: Claims, deletedAt?: number): Promise<string> {
  const id = seed();
  ok(
    await t.post(
      `${DICTIONARY}/save`,
      { dataDictionaryId: id, dataDictionaryTypeCode: 'retention', dataDictionaryCode: id, name: id, sort: 1 },
      claims,
    ),
  );
  if (deletedAt === undefined) return id;
  ok(await t.del(`${DICTIONARY}/removeById?id=${id}`, claims));
  // the removal happened now: moved back to the moment the test needs
  await t.dataSource.query(`UPDATE ${DICTIONARY_TABLE} SET delete_time = ? WHERE tenant_id = ? AND data_dictionary_id = ?`, [
    deletedAt,
    claims.tenantId,
    id,
  ]);
  return id;
}

/** The identifiers a table holds for a tenant, live or deleted, sorted. */
async function stored(t: TestApp, table: string, idColumn: string, claims: Claims): Promise<string[]> {
  const rows = (await t.dataSource.query(`SELECT ${idColumn} AS id FROM ${table} WHERE tenant_id = ?`, [claims.tenantId])) as {
    id: string;
  }[];
  return rows.map((row) => row.id).sort();
}

const storedSnapshots = (t: TestApp, claims: Claims) => stored(t, SNAPSHOT_TABLE, 'device_state_snap_id', claims);
const storedDictionary = (t: TestApp, claims: Claims) => stored(t, DICTIONARY_TABLE, 'data_dictionary_id', claims);

/** page's total of the tenant's snapshots (one row a page, so it is counted, and then reused while no write is recorded). */
async function snapshotTotal(t: TestApp, claims: Claims): Promise<number> {
  return ok(await t.post(`${SNAPSHOT}/page`, { current: 1, pageSize: 1 }, claims)).extraData.total as number;
}

const pass = (t: TestApp): Promise<RetentionPass> => t.app.get(RetentionJob).run();

describe('retention on one app', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp(RETAINING);
  });
  afterAll(() => t?.close());

  it('removes snapshots past their period (live or deleted) and records deleted past theirs, of every tenant, and keeps the rest', async () => {
    const [a, b] = [tenant(), tenant()];
    const now = Date.now();
    for (const snapTime of [now - 7 * DAY - HOUR, now - 8 * DAY, now - 400 * DAY]) await snapshot(t, a, snapTime);
    const dueDeleted = await snapshot(t, a, now - 8 * DAY);
    ok(await t.del(`${SNAPSHOT}/removeById?id=${dueDeleted}`, a));
    const kept = [await snapshot(t, a, now - 7 * DAY + HOUR), await snapshot(t, a, now)];
    await snapshot(t, b, now - 9 * DAY);
    await dictionaryRecord(t, a, now - 30 * DAY - HOUR);
    const keptDictionary = [await dictionaryRecord(t, a, now - 30 * DAY + HOUR), await dictionaryRecord(t, a)];
    expect(await snapshotTotal(t, a)).toBe(5);

    const report = await pass(t);

    expect(report).toMatchObject({ ran: true, complete: true, removed: { [SNAPSHOT_TABLE]: 5, [DICTIONARY_TABLE]: 1 } });
    expect(await storedSnapshots(t, a)).toEqual([...kept].sort());
    expect(await storedSnapshots(t, b)).toEqual([]);
    expect(await storedDictionary(t, a)).toEqual([...keptDictionary].sort());
    // the count made before the pass is not reused: the pass raised the tenant's write version
    expect(await snapshotTotal(t, a)).toBe(2);
  });

  it('removes in DELETEs of at most RETENTION_BATCH_ROWS rows, and counts them in /metrics', async () => {
    const claims = tenant();
    const before = (await t.http().get('/main-service/metrics')).text;
    const series = { table: SNAPSHOT_TABLE, reason: 'expired' };
    for (let i = 0; i < 5; i++) await snapshot(t, claims, Date.now() - 10 * DAY - i);

    const report = await pass(t);

    expect(report.removed).toEqual({ [SNAPSHOT_TABLE]: 5 });
    expect(report.largestBatch).toBe(2);
    expect(report.batches).toBe(3);
    const after = (await t.http().get('/main-service/metrics')).text;
    expect(metricValue(after, 'retention_removed_rows_total', series) - metricValue(before, 'retention_removed_rows_total', series)).toBe(
      5,
    );
  });

  it('refuses a snapshot dated past the clock-skew allowance (it would never expire), naming the field and the bound', async () => {
    const claims = tenant();
    const kept = await snapshot(t, claims, Date.now() + HOUR);
    const refusal = { httpStatus: 200, status: 400, error: 'snapTime must not be later than 24 hours from now' };
    const body = { deviceNo: 'DAD-0001', deviceType: 'DATA_ACQUISITION_DEVICE', state: 'ONLINE', snapTime: Date.UTC(2200, 0, 1) };
    expect(await t.post(`${SNAPSHOT}/save`, body, claims)).toMatchObject(refusal);
    expect(await t.post(`${SNAPSHOT}/save`, { ...body, snapTime: Date.now() + DAY + HOUR }, claims)).toMatchObject(refusal);
    expect(await t.put(`${SNAPSHOT}/updateById`, { deviceStateSnapId: kept, snapTime: Date.UTC(2200, 0, 1) }, claims)).toMatchObject(
      refusal,
    );
    expect(await storedSnapshots(t, claims)).toEqual([kept]);
    expect(ok(await t.get(`${SNAPSHOT}/getById?id=${kept}`, claims)).data).toMatchObject({ revision: 1 });
  });

  it('a pass with nothing due removes nothing', async () => {
    const claims = tenant();
    const kept = await snapshot(t, claims, Date.now());
    expect(await pass(t)).toMatchObject({ ran: true, complete: true, removed: {}, batches: 0 });
    expect(await storedSnapshots(t, claims)).toEqual([kept]);
  });
});

describe('retention unset', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());

  /** A tenant's old snapshot and old deleted record on an app with `env`, and what is left of them after a pass. */
  async function oldRowsAfterPass(env: Record<string, string>): Promise<{ ran: boolean; snapshots: number; dictionary: number }> {
    const t = await startApp(env, { shared: database });
    try {
      const claims = tenant();
      const old = Date.now() - 1000 * DAY;
      await snapshot(t, claims, old);
      await dictionaryRecord(t, claims, old);
      const { ran } = await pass(t);
      return { ran, snapshots: (await storedSnapshots(t, claims)).length, dictionary: (await storedDictionary(t, claims)).length };
    } finally {
      await t.close();
    }
  }

  it('keeps everything without either period (no pass runs)', async () => {
    expect(await oldRowsAfterPass({})).toEqual({ ran: false, snapshots: 1, dictionary: 1 });
  });

  it('keeps deleted records without PURGE_DELETED_AFTER_DAYS, and snapshots without SNAPSHOT_RETENTION_DAYS', async () => {
    expect(await oldRowsAfterPass({ SNAPSHOT_RETENTION_DAYS: '7' })).toEqual({ ran: true, snapshots: 0, dictionary: 1 });
    expect(await oldRowsAfterPass({ PURGE_DELETED_AFTER_DAYS: '30' })).toEqual({ ran: true, snapshots: 1, dictionary: 0 });
  });
});

describe('retention on two replicas of one database', () => {
  let database: TestDatabase;
  const open: TestApp[] = [];

  beforeAll(async () => {
    database = await createSharedDatabase();
    for (let i = 0; i < 2; i++) open.push(await startApp(RETAINING, { shared: database }));
  });

  afterAll(async () => {
    for (const t of open) await t.close();
    await database?.drop();
  });

  it('one replica runs the passes; the other sees what it removed, and takes over once it stops', async () => {
    const [a, b] = open;
    const claims = tenant();
    for (let i = 0; i < 3; i++) await snapshot(a, claims, Date.now() - 10 * DAY - i);
    const kept = await snapshot(b, claims, Date.now());
    expect(await snapshotTotal(b, claims)).toBe(4);

    const reports = await Promise.all([pass(a), pass(b)]);

    expect(reports.filter((report) => report.ran)).toHaveLength(1);
    expect(reports.map((report) => report.removed[SNAPSHOT_TABLE] ?? 0).sort()).toEqual([0, 3]);
    expect(await snapshotTotal(a, claims)).toBe(1);
    expect(await snapshotTotal(b, claims)).toBe(1);

    const [holder, other] = reports[0].ran ? [a, b] : [b, a];
    expect((await pass(other)).ran).toBe(false);
    await snapshot(other, claims, Date.now() - 10 * DAY);
    await holder.close();
    open.splice(open.indexOf(holder), 1);
    expect(await pass(other)).toMatchObject({ ran: true, removed: { [SNAPSHOT_TABLE]: 1 } });
    expect(await storedSnapshots(other, claims)).toEqual([kept]);
  });
});

describe('retention on device-service', () => {
  it('purges its registry records deleted longer ago than PURGE_DELETED_AFTER_DAYS, and keeps the others', async () => {
    const t = await startDeviceApp({ PURGE_DELETED_AFTER_DAYS: '30', RETENTION_BATCH_PAUSE_MS: '0' });
    try {
      const claims = tenant();
      const numbers = ['DAS-OLD', 'DAS-RECENT', 'DAS-LIVE'].map((no) => `${no}-${seed()}`);
      for (const no of numbers) await t.register('server', no, 'correct-horse-battery-staple', claims);
      const [old, recent] = numbers;
      for (const [no, deletedAt] of [
        [old, Date.now() - 31 * DAY],
        [recent, Date.now() - 29 * DAY],
      ] as const)
        await t.dataSource.query(
          'UPDATE device_data_acquisition_server SET delete_time = ? WHERE tenant_id = ? AND data_acquisition_server_no = ?',
          [deletedAt, claims.tenantId, no],
        );

      expect(await pass(t)).toMatchObject({ ran: true, removed: { device_data_acquisition_server: 1 } });
      expect(await stored(t, 'device_data_acquisition_server', 'data_acquisition_server_no', claims)).toEqual(numbers.slice(1).sort());
    } finally {
      await t.close();
    }
  });
});
