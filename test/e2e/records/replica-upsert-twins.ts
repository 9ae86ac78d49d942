/**
 * Upserts by business key never refuse their concurrent twin: the same new keys sent at once through two
 * replicas of one database (data-dictionary-table importList and saveOrUpdate) all succeed and leave one live
 * record per key, holding one of the writers' values. A plain save of an existing key is still refused.
 * MariaDB only: replicas are separate processes on a database server. Two app instances over one SQLite file
 * in one process are no replicas: better-sqlite3 waits for the other connection's lock synchronously, holding the
 * very event loop that would release it.
 */
import { createSharedDatabase, TestDatabase, usingMysql } from '../../support/database';
import { CONFIG, Envelope, startApp, TestApp } from '../../support/test-app';
import type { Json } from '../../support/json';

const P = `${CONFIG}/data-dictionary-table`;
/** Rounds of simultaneous calls: a lost race shows within a few on MariaDB. */
const ROUNDS = 8;

(usingMysql() ? describe : describe.skip)('upserts of the same new keys through two replicas at once', () => {
  let database: TestDatabase;
  let replicas: TestApp[] = [];
  let n = 0;
  const seed = () => `tw${++n}x${Date.now().toString(36)}`;
  const row = (type: string, key: string, value: string): Json => ({
    dataDictionaryTypeCode: type,
    dataDictionaryCode: 'c',
    row: '1',
    key,
    value,
    name: 'n',
    sort: 1,
  });
  const keysOf = async (type: string): Promise<Json[]> =>
    ((await replicas[0].post(`${P}/list`, { dataDictionaryTypeCode: type })).data as Json[])
      .map((r) => ({ key: r.key, value: r.value }))
      .sort((a, b) => a.key.localeCompare(b.key));
  const outcome = (res: Envelope) => ({ status: res.status, error: res.error });

  beforeAll(async () => {
    database = await createSharedDatabase();
    replicas = [await startApp({}, { shared: database }), await startApp({}, { shared: database })];
  });
  afterAll(async () => {
    for (const t of replicas) await t.close();
    await database?.drop();
  });

  it('importList: every call succeeds, one record per key, the values of one of the batches', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const type = seed();
      // the shared new key, and keys of each batch's own that a refusal would have taken with it
      const batch = (who: string) => [row(type, 'shared', who), row(type, `own-${who}`, who), row(type, 'shared2', who)];
      const answers = await Promise.all(replicas.map((t, i) => t.post(`${P}/importList`, batch(`r${i}`))));
      expect(answers.map(outcome)).toEqual(answers.map(() => ({ status: 200, error: null })));
      const stored = await keysOf(type);
      expect(stored.map((r) => r.key)).toEqual(['own-r0', 'own-r1', 'shared', 'shared2']);
      const winner = stored.find((r) => r.key === 'shared')!.value;
      expect(['r0', 'r1']).toContain(winner);
    }
  });

  it('saveOrUpdate by key: every call succeeds, one record per key', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const type = seed();
      const answers = await Promise.all(replicas.map((t, i) => t.post(`${P}/saveOrUpdate`, row(type, 'shared', `r${i}`))));
      expect(answers.map(outcome)).toEqual(answers.map(() => ({ status: 200, error: null })));
      expect((await keysOf(type)).map((r) => r.key)).toEqual(['shared']);
    }
  });

  it('a plain save of a key that exists is still refused', async () => {
    const type = seed();
    expect(outcome(await replicas[0].post(`${P}/save`, row(type, 'k', 'a')))).toEqual({ status: 200, error: null });
    expect(await replicas[1].post(`${P}/save`, row(type, 'k', 'b'))).toMatchObject({ status: 422 });
  });
});
