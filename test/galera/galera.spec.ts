/**
 * main-service on a 3-node MariaDB Galera cluster (scripts/galera.sh), two instances on one database: A through
 * node 1, B through node 2, both with DB_HOSTS naming all three.
 *
 * 1. A storm of every write operation and of reads across the instances (test/cluster/storm's clients) with every
 *    node up: writers of the same tenants on two nodes meet Galera's certification conflicts, which must never
 *    reach a client; only documented refusals are accepted (no 500, no 503); every acknowledged write is there
 *    once, and each write is read at once through the other instance (wsrep_sync_wait).
 * 2. Writers through both instances while node 2 is killed (kill -9) and rejoins: B goes on through the other
 *    nodes; a write answered 503 meanwhile is sent again, the same record with the same id, until it is answered
 *    (a 422 "exists" then means the first one was written). No 500; no acknowledged write lost or doubled.
 * 3. A table's count triggers made anew through node 1 (dropped, then made as a migration makes them on a table in
 *    use) while both instances write it: no 500, every acknowledged write kept, and its deleted and filter counts
 *    exact on every node (its live counts are checked with every table's in 4).
 * 4. After all that, the instances stopped: the live counts equal COUNT(*) on every node, and every node holds the same
 *    tables (CHECKSUM TABLE).
 */
import { Storm } from '../cluster/storm/account';
import { awaitBatches, checkJournal, liveCountMismatches } from '../cluster/storm/final-checks';
import { freshTenant } from '../cluster/storm/fresh-tenants';
import { readYourWrites } from '../cluster/storm/read-your-writes';
import { clientId, DD, DDT, rowOf } from '../cluster/storm/resources';
import { twins } from '../cluster/storm/twins';
import { Writer } from '../cluster/storm/writers';
import { unique } from '../cluster/cluster-support';
import {
  createDeletedCountTriggers,
  createLiveCountTriggers,
  deletedCountTriggerNames,
  filterColumnsCountedBy,
  insertTriggerName,
  liveCountTriggerNames,
} from '@app/common';
import { caughtUp, checksums, describeGalera, galera, GaleraApps, startGaleraApps, tableCountMismatches } from './galera-support';

const STORM_MS = 30_000;
const OUTAGE_RUN_MS = 30_000;
/** When node 2 is killed after the outage run starts, and how long it stays down. */
const KILL_AFTER_MS = 6_000;
const DOWN_MS = 8_000;
/** Sends of one record before its writer gives up (a 503 is sent again after a short pause). */
const MAX_SENDS = 40;
/** How long writers write the table whose count triggers are made anew, and when that starts. */
const RECOUNT_RUN_MS = 12_000;
const RECOUNT_AFTER_MS = 3_000;

describeGalera('main-service on a Galera cluster', () => {
  let g: GaleraApps;
  beforeAll(async () => {
    g = await startGaleraApps();
  }, 120_000);
  afterAll(async () => {
    await g?.close();
  }, 60_000);

  it('answers a storm of every write operation through two nodes with no 500 and no 503, and keeps every acknowledged write once', async () => {
    // every session of the service waits for causality on reads, updates and deletes
    for (const app of [g.a, g.b])
      expect(await app.dataSource.query('SELECT @@SESSION.wsrep_sync_wait AS w, @@SESSION.max_statement_time > 0 AS bounded')).toEqual([
        { w: 3, bounded: 1 },
      ]);
    const s = new Storm(g.cluster);
    const busy = [unique('gbusy0'), unique('gbusy1')];
    const writers = Array.from({ length: 6 }, (_, k) => new Writer(s, busy[k % busy.length]));
    const readers = Array.from({ length: 4 }, (_, k) => new Writer(s, busy[k % busy.length]));
    const clients = [
      ...writers.map((w) => () => w.any()),
      ...[0, 1].map((k) => (i: number) => twins(s, busy[(i + k) % busy.length], i + k)),
      () => freshTenant(s),
      ...readers.map((w, k) => (i: number) => readYourWrites(w, k === 0 ? DDT : DD, i)),
    ];
    await s.run(clients, STORM_MS);
    await awaitBatches(s);
    await checkJournal(s);
    const conflicts = await certificationFailures(g);
    console.log(
      `galera storm: ${clients.length} clients for ${STORM_MS / 1000} s: ${s.counts.requests} requests, ${s.counts.writes} acknowledged writes, ` +
        `${s.counts.crossReads} reads across nodes, ${s.problems.length} problems; certification failures on the nodes: ${conflicts}`,
    );
    expect(s.problems.slice(0, 40)).toEqual([]);
    expect(s.counts.writes).toBeGreaterThan(100);
  }, 240_000);

  it('goes on through the other nodes while node 2 is killed and rejoins: no 500, no write lost or doubled', async () => {
    const tenants = [unique('gkill0'), unique('gkill1')];
    const s = new Storm(g.cluster);
    const acknowledged = new Map<string, Set<string>>(tenants.map((t) => [t, new Set()]));
    const answers = { ok: 0, unavailable: 0, server: 0, other: [] as string[], okOnBWhileDown: 0 };
    let down = false;
    const type = unique('k');
    /** One record, through one instance, sent until answered (200, or 422 after an earlier unanswered send). */
    const writeOne = async (base: string, tenant: string) => {
      const id = clientId();
      const row = { ...rowOf(DD, type, id, id), dataDictionaryId: id };
      let sentBefore = false;
      for (let send = 0; send < MAX_SENDS; send++) {
        const answer = await s.send(base, DD, 'save', tenant, { body: row });
        if (answer.http === 200 && answer.status === 200) {
          answers.ok++;
          if (down && base === g.cluster.main[1]) answers.okOnBWhileDown++;
          return void acknowledged.get(tenant)!.add(id);
        }
        if (answer.http === 200 && answer.status === 422 && sentBefore) return void acknowledged.get(tenant)!.add(id);
        if (answer.http === 503 || answer.http === 0) {
          answers.unavailable++;
          sentBefore = true;
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        if (answer.http >= 500) answers.server++;
        return void answers.other.push(`HTTP ${answer.http} status ${answer.status}: ${answer.error}`);
      }
      answers.other.push(`record ${id} not written after ${MAX_SENDS} sends`);
    };
    const clients = Array.from({ length: 8 }, (_, k) => () => writeOne(g.cluster.main[k % 2], tenants[k % 2]));
    const outage = (async () => {
      await new Promise((r) => setTimeout(r, KILL_AFTER_MS));
      await galera('kill', '2');
      down = true;
      await new Promise((r) => setTimeout(r, DOWN_MS));
      down = false;
      await galera('rejoin', '2');
    })();
    await Promise.all([s.run(clients, OUTAGE_RUN_MS), outage]);
    console.log(`galera outage: ${JSON.stringify({ ...answers, other: answers.other.length })}`);
    expect(answers.server).toBe(0);
    expect(answers.other.slice(0, 20)).toEqual([]);
    expect(answers.okOnBWhileDown).toBeGreaterThan(0);
    // B's metrics name the nodes: all three ready again once node 2 has rejoined, one of them in use
    const nodeGauges = async () => (await g.b.http().get('/main-service/metrics')).text;
    const deadline = Date.now() + 10_000;
    let gauges = await nodeGauges();
    while (!/db_node_ready\{node="[^"]+:3312"\} 1/.test(gauges) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      gauges = await nodeGauges();
    }
    expect(gauges.match(/^db_node_ready\{node="[^"]+"\} 1$/gm)).toHaveLength(3);
    expect(gauges.match(/^db_node_in_use\{node="[^"]+"\} 1$/gm)).toHaveLength(1);
    // every acknowledged record once, and no other, on every node
    for (const n of [1, 2, 3]) await caughtUp(n, g.name);
    for (const tenant of tenants) {
      const answer = await s.send(g.cluster.main[1], DD, 'list', tenant, { body: { sqlQueryLimit: 10_000 } });
      expect(answer).toMatchObject({ http: 200, status: 200 });
      const ids = (answer.data as { dataDictionaryId: string }[]).map((row) => row.dataDictionaryId);
      expect(ids.length).toBe(new Set(ids).size);
      expect(new Set(ids)).toEqual(acknowledged.get(tenant));
    }
  }, 240_000);

  it('makes a table’s count triggers anew through node 1 while both instances write it: every count exact on every node', async () => {
    const table = 'configuration_data_dictionary';
    const s = new Storm(g.cluster);
    const tenants = [unique('gcount0'), unique('gcount1')];
    const writers = Array.from({ length: 6 }, (_, k) => new Writer(s, tenants[k % tenants.length]));
    const runner = g.a.dataSource.createQueryRunner();
    const storm = s.run(
      writers.map((w) => () => w.any()),
      RECOUNT_RUN_MS,
    );
    let filterColumns: string[] = [];
    try {
      await new Promise((resolve) => setTimeout(resolve, RECOUNT_AFTER_MS));
      const [insert] = (await runner.query(
        'SELECT ACTION_STATEMENT AS statement FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME = ?',
        [insertTriggerName(table)],
      )) as { statement: string }[];
      filterColumns = filterColumnsCountedBy(insert.statement);
      expect(filterColumns.length).toBeGreaterThan(0);
      for (const name of [...liveCountTriggerNames(table), ...deletedCountTriggerNames(table)])
        await runner.query(`DROP TRIGGER \`${name}\``);
      // writes meanwhile go uncounted by triggers: the counts made next must take them from the rows
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await createLiveCountTriggers(runner, table, filterColumns);
      await createDeletedCountTriggers(runner, table);
    } finally {
      await runner.release();
      await storm;
    }
    await awaitBatches(s);
    await checkJournal(s);
    expect(s.problems.slice(0, 40)).toEqual([]);
    expect(s.counts.writes).toBeGreaterThan(50);
    for (const n of [1, 2, 3]) {
      await caughtUp(n, g.name);
      expect([n, await tableCountMismatches(n, g.name, table, filterColumns)]).toEqual([n, []]);
    }
  }, 120_000);

  it('leaves the live counts equal to the rows and every node holding the same tables', async () => {
    // nothing may write while the nodes are compared: the instances renew leases and relay the outbox every second
    await g.stopApps();
    for (const n of [1, 2, 3]) await caughtUp(n, g.name);
    for (const n of [1, 2, 3]) {
      const { mismatches, pairs } = await liveCountMismatches(`mysql://root@${process.env.GALERA_HOSTS!.split(',')[n - 1]}/${g.name}`);
      expect(pairs).toBeGreaterThan(0);
      expect(mismatches).toEqual([]);
    }
    const [one, two, three] = [await checksums(1, g.name), await checksums(2, g.name), await checksums(3, g.name)];
    expect(Object.keys(one).length).toBeGreaterThan(10);
    expect(two).toEqual(one);
    expect(three).toEqual(one);
  }, 120_000);
});

/** wsrep_local_cert_failures summed over the nodes (what the retries absorbed). */
async function certificationFailures(g: GaleraApps): Promise<number> {
  const rows = (await Promise.all(
    [g.a, g.b].map((app) => app.dataSource.query("SHOW GLOBAL STATUS LIKE 'wsrep_local_cert_failures'")),
  )) as {
    Value: string;
  }[][];
  return rows.reduce((sum, [row]) => sum + Number(row?.Value ?? 0), 0);
}
