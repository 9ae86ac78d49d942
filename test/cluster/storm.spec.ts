/**
 * A storm on both main-service replicas at once: for STORM_MS, clients spread over the replicas' own ports
 * (and the gateway) write and read the same tenants with every write operation of three configuration
 * resources, and check what each answer must show:
 *
 * - writers on busy tenants keep a journal of every acknowledged write (what each business key must be at
 *   the end: its name, identifier and revision, or absent); twins send the same new keys through both
 *   replicas at once (a plain save or saveBatch: one wins, the other is refused with 422; upserts: both
 *   succeed, one record per key, all keys of one import from the same call);
 * - writers on brand-new tenants send their first writes through both replicas at once;
 * - probers page from the end of a tenant with STABLE rows and churn after them in the order: page 3 and 4
 *   of 10 always hold the same stable rows, whatever the churn, because rows and total come from one snapshot;
 * - readers write through one replica and read through the other right after the acknowledgement.
 *
 * Only documented refusals are accepted; anything else (500, a reset connection) is a failure. A refusal for load
 * (503 + Retry-After) is sent again as the contract tells clients to, and at most one call in BUSY_SHARE may be
 * refused so: the storm is within the replicas' capacity, on a shared machine whose stalls a 500 ms wait can meet. After
 * the storm every journaled key is checked through the API, and every tenant's kept live count against its
 * rows in MariaDB.
 */
import { cluster, Cluster, describeCluster, unique } from './cluster-support';
import { Storm } from './storm/account';
import { awaitBatches, checkJournal, liveCountMismatches } from './storm/final-checks';
import { freshTenant } from './storm/fresh-tenants';
import { CHURN_WRITERS, churn, probe, STABLE, stableCode } from './storm/probe-tenant';
import { readYourWrites } from './storm/read-your-writes';
import { DD, DDT, rowOf } from './storm/resources';
import { twins } from './storm/twins';
import { Writer } from './storm/writers';

/** How long the clients run. */
const STORM_MS = 45_000;
const BUSY_TENANTS = 3;
const BUSY_WRITERS = 6;
const TWIN_WRITERS = 2;
const FRESH_WRITERS = 2;
const READERS = 4;
const PROBERS = 2;
/** The share of requests that may be refused for load (and sent again). */
const BUSY_SHARE = 0.01;

describeCluster('a storm of writes and reads on both main-service replicas', () => {
  let c: Cluster;
  beforeAll(() => (c = cluster()));

  it('answers every call, keeps every acknowledged write once, pages from one snapshot, and reads its writes on the other replica', async () => {
    const s = new Storm(c);
    const probeTenant = unique('stormprobe');
    const probeType = unique('p');
    for (let n = 1; n <= STABLE; n += 8) {
      const stable = Array.from({ length: Math.min(8, STABLE - n + 1) }, (_, k) =>
        rowOf(DD, probeType, stableCode(n + k), 'stable', { sort: n + k }),
      );
      const answers = await Promise.all(stable.map((row, k) => s.send(c.main[k % 2], DD, 'save', probeTenant, { body: row })));
      answers.forEach((a) => expect(a).toMatchObject({ http: 200, status: 200 }));
      for (const row of stable) s.expectAtEnd(probeTenant, DD, row, { present: true, names: ['stable'], revision: 1 });
    }
    const busy = Array.from({ length: BUSY_TENANTS }, (_, k) => unique(`stormbusy${k}`));
    const writers = Array.from({ length: BUSY_WRITERS }, (_, k) => new Writer(s, busy[k % BUSY_TENANTS]));
    const churners = Array.from({ length: CHURN_WRITERS }, () => new Writer(s, probeTenant, probeType));
    const readers = Array.from({ length: READERS }, (_, k) => new Writer(s, busy[k % BUSY_TENANTS]));
    const clients = [
      ...writers.map((w) => () => w.any()),
      ...Array.from({ length: TWIN_WRITERS }, (_, k) => (i: number) => twins(s, busy[(i + k) % BUSY_TENANTS], i + k)),
      ...Array.from({ length: FRESH_WRITERS }, () => () => freshTenant(s)),
      ...churners.map((w) => (i: number) => churn(w, i)),
      ...Array.from({ length: PROBERS }, (_, k) => (i: number) => probe(s, probeTenant, probeType, i + k)),
      ...readers.map((w, k) => (i: number) => readYourWrites(w, k === 0 ? DDT : DD, i)),
    ];
    expect(clients.length).toBeGreaterThanOrEqual(16);
    const before = s.counts.requests;
    await s.run(clients, STORM_MS);
    const stormed = { ...s.counts, requests: s.counts.requests - before };

    await awaitBatches(s);
    await checkJournal(s);
    const { pairs, mismatches } = await liveCountMismatches(c.mainDatabase);
    console.log(
      `storm: ${clients.length} clients for ${STORM_MS / 1000} s: ${stormed.requests} requests, ${stormed.writes} acknowledged writes ` +
        `(${stormed.refusals} refused twins), ${stormed.busy} refused for load and sent again, ${stormed.pagesProbed} pages probed, ${stormed.crossReads} reads across replicas, ` +
        `${stormed.freshTenants} new tenants, ${s.batches.length} import batches; ${s.journal.size} tenant resources and ` +
        `${[...s.journal.values()].reduce((n, j) => n + j.keys.size, 0)} keys checked; live counts of ${pairs} tables and tenants compared; ` +
        `${s.problems.length} problems`,
    );
    expect(s.problems.slice(0, 40)).toEqual([]);
    expect(stormed.busy).toBeLessThanOrEqual(stormed.requests * BUSY_SHARE);
    expect(mismatches).toEqual([]);
    // each tenant and resource the storm wrote has its live count (0 once all its records are removed)
    expect(pairs).toBeGreaterThanOrEqual(s.journal.size);
    expect(stormed.pagesProbed).toBeGreaterThan(50);
  }, 240_000);
});
