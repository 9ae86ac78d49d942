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
 * Only documented refusals are accepted; anything else (500, 503, a reset connection) is a failure. After
 * the storm every journaled key is checked through the API, and every tenant's kept live count against its
 * rows in MariaDB.
 */
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { LIVE } from '../../libs/common/src/persistence/columns';
import { LIVE_COUNT_TABLE } from '../../libs/common/src/persistence/live-count-sql';
import { recordTables } from '../../libs/common/src/persistence/record-tables';
import { Answer, call, cluster, Cluster, describeCluster, token, unique } from './cluster-support';

/** How long the clients run; each loop also ends after MAX_STEPS steps. */
const STORM_MS = 45_000;
const MAX_STEPS = 5_000;
/** The prober's tenant: rows s01..s40 with sort 1..40, and at most CHURN_HELD per churn writer after them (sort 1000+). */
const STABLE = 40;
const CHURN_WRITERS = 2;
const CHURN_HELD = 4;
const MOST_CHURN = CHURN_WRITERS * CHURN_HELD;
const BUSY_TENANTS = 3;
const BUSY_WRITERS = 6;
const TWIN_WRITERS = 2;
const FRESH_WRITERS = 2;
const READERS = 4;
const PROBERS = 2;
/** How long the asynchronous imports may take to be applied once the storm is over. */
const APPLY_WAIT_MS = 60_000;

type Row = Record<string, unknown>;

interface Resource {
  path: string;
  idField: string;
  /** The uniqueness key; the first field takes a writer's type code, the second a code of its own. */
  key: string[];
}

const CONFIGURATION = '/main-service/system-api/configuration';
const DD: Resource = {
  path: `${CONFIGURATION}/data-dictionary`,
  idField: 'dataDictionaryId',
  key: ['dataDictionaryTypeCode', 'dataDictionaryCode'],
};
const DDT: Resource = {
  path: `${CONFIGURATION}/data-dictionary-table`,
  idField: 'dataDictionaryTableId',
  key: ['dataDictionaryTypeCode', 'dataDictionaryCode', 'row', 'key'],
};
const VST: Resource = { path: `${CONFIGURATION}/value-set-table`, idField: 'valueSetTableId', key: ['valueSetTypeCode', 'row', 'key'] };

const rowOf = (r: Resource, type: string, code: string, name: string, more: Row = {}): Row => {
  const [typeField, codeField, ...rest] = r.key;
  return { [typeField]: type, [codeField]: code, ...Object.fromEntries(rest.map((f) => [f, 'k'])), name, ...more };
};
const keyOf = (r: Resource, row: Row): string => r.key.map((f) => String(row[f])).join('/');
const clientId = (): string => randomBytes(12).toString('hex');
const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)];

/** What a key must be after the storm: present (one of `names`; `id`, `revision` when known) or absent. */
interface Expected {
  present: boolean;
  names: string[];
  id?: string;
  revision?: number;
  /** Keys of one twin import: their names must all be the same alternative (one call wrote all of them last). */
  group?: string;
}

/** A record a writer created and alone changes, as it must be stored. */
interface Held {
  r: Resource;
  tenant: string;
  id: string;
  row: Row;
  revision: number;
}

interface Batch {
  tenant: string;
  batchId: string;
  count: number;
}

/** The clients' shared account: the journal, the problems seen, and the numbers of the summary. */
class Storm {
  readonly journal = new Map<string, { tenant: string; r: Resource; keys: Map<string, Expected> }>();
  readonly batches: Batch[] = [];
  readonly problems: string[] = [];
  readonly counts = { requests: 0, writes: 0, refusals: 0, pagesProbed: 0, crossReads: 0, freshTenants: 0 };
  private readonly tokens = new Map<string, string>();

  constructor(readonly c: Cluster) {}

  /** The replicas' own ports and the gateway. */
  get anyBase(): string[] {
    return [...this.c.main, this.c.gateway];
  }

  async send(
    base: string,
    r: Resource,
    operation: string,
    tenant: string,
    init: { method?: string; body?: unknown } = {},
  ): Promise<Answer> {
    let auth = this.tokens.get(tenant);
    if (!auth) this.tokens.set(tenant, (auth = token(this.c.jwtSecret, tenant)));
    this.counts.requests++;
    try {
      return await call(`${base}${r.path}/${operation}`, { ...init, token: auth });
    } catch (error) {
      return { http: 0, error: (error as Error).message, retryAfter: null };
    }
  }

  /** Whether the answer is a success; an answer that is neither that nor one of the `refusals` is a problem. */
  ok(answer: Answer, what: string, refusals: number[] = []): boolean {
    if (answer.http === 200 && answer.status === 200) return true;
    if (answer.http === 200 && refusals.includes(answer.status!)) this.counts.refusals++;
    else this.problem(`${what}: HTTP ${answer.http}, status ${answer.status}, ${answer.error}`);
    return false;
  }

  problem(text: string): void {
    this.problems.push(text);
  }

  check(holds: boolean, text: () => string): void {
    if (!holds) this.problem(text());
  }

  /** Journals what the key of `row` must be once the storm is over (the last call for a key sets it). */
  expectAtEnd(tenant: string, r: Resource, row: Row, expected: Expected): void {
    const scope = `${tenant} ${r.path}`;
    let entry = this.journal.get(scope);
    if (!entry) this.journal.set(scope, (entry = { tenant, r, keys: new Map() }));
    entry.keys.set(keyOf(r, row), expected);
  }

  /** A held record as acknowledged (after a create or an update). */
  stored(h: Held): void {
    this.expectAtEnd(h.tenant, h.r, h.row, { present: true, names: [String(h.row.name)], id: h.id, revision: h.revision });
  }

  removed(h: Held): void {
    this.expectAtEnd(h.tenant, h.r, h.row, { present: false, names: [] });
  }

  /** All clients at once, each running its steps one after another for `ms` (and at most MAX_STEPS of them). */
  async run(clients: ((i: number) => Promise<void>)[], ms: number): Promise<void> {
    const until = Date.now() + ms;
    await Promise.all(
      clients.map(async (step) => {
        for (let i = 0; i < MAX_STEPS && Date.now() < until; i++) await step(i);
      }),
    );
  }
}

/** One client's writes, each through the base it is given, on records it alone changes (`held`) and on new keys. */
class Writer {
  readonly held: Held[] = [];
  /** Codes of its own, also where writers share a type. */
  private readonly prefix = randomBytes(3).toString('hex');
  private n = 0;

  constructor(
    readonly s: Storm,
    readonly tenant: string,
    readonly type = unique('w'),
  ) {}

  newRow(r: Resource, more: Row = {}): Row {
    const code = `${this.prefix}-${++this.n}`;
    return rowOf(r, this.type, code, `${code}.1`, more);
  }

  /** The name an update gives: the record's code and the revision it will have. */
  private rename(h: Held): string {
    return `${String(h.row[h.r.key[1]])}.${h.revision + 1}`;
  }

  private take(r?: Resource): Held | undefined {
    const candidates = this.held.filter((h) => !r || h.r === r);
    const h = candidates.length ? pick(candidates) : undefined;
    if (h) this.held.splice(this.held.indexOf(h), 1);
    return h;
  }

  async save(base: string, r: Resource, more: Row = {}): Promise<Held | undefined> {
    const h: Held = { r, tenant: this.tenant, id: clientId(), row: this.newRow(r, more), revision: 1 };
    const answer = await this.s.send(base, r, 'save', this.tenant, { body: { ...h.row, [r.idField]: h.id } });
    if (!this.s.ok(answer, `save ${keyOf(r, h.row)}`)) return undefined;
    this.s.counts.writes++;
    this.held.push(h);
    this.s.stored(h);
    return h;
  }

  async updateById(base: string, h: Held, changes: Row = {}): Promise<void> {
    const name = this.rename(h);
    const revision = Math.random() < 0.5 ? { revision: h.revision } : {};
    const body = { [h.r.idField]: h.id, name, ...changes, ...revision };
    const answer = await this.s.send(base, h.r, 'updateById', this.tenant, { method: 'PUT', body });
    if (!this.s.ok(answer, `updateById ${keyOf(h.r, h.row)}`)) return;
    this.s.check(answer.data === true, () => `updateById ${keyOf(h.r, h.row)} of a live record answered ${String(answer.data)}`);
    this.s.counts.writes++;
    Object.assign(h.row, { name, ...changes });
    h.revision++;
    this.s.stored(h);
  }

  /** saveOrUpdate of a held record by its id or by its key, or of a new key with a client id. */
  async saveOrUpdate(base: string): Promise<void> {
    const h = Math.random() < 0.7 ? pick(this.held.filter((x) => x.r === DDT)) : undefined;
    if (!h) {
      const created: Held = { r: DDT, tenant: this.tenant, id: clientId(), row: this.newRow(DDT), revision: 1 };
      const answer = await this.s.send(base, DDT, 'saveOrUpdate', this.tenant, { body: { ...created.row, [DDT.idField]: created.id } });
      if (!this.s.ok(answer, `saveOrUpdate new ${keyOf(DDT, created.row)}`)) return;
      this.s.counts.writes++;
      this.held.push(created);
      return this.s.stored(created);
    }
    const name = this.rename(h);
    const byId = Math.random() < 0.5 ? { [DDT.idField]: h.id } : {};
    const revision = Math.random() < 0.5 ? { revision: h.revision } : {};
    const answer = await this.s.send(base, DDT, 'saveOrUpdate', this.tenant, { body: { ...h.row, name, ...byId, ...revision } });
    if (!this.s.ok(answer, `saveOrUpdate ${keyOf(DDT, h.row)}`)) return;
    this.s.counts.writes++;
    h.row.name = name;
    h.revision++;
    this.s.stored(h);
  }

  async removeById(base: string, r?: Resource): Promise<Held | undefined> {
    const h = this.take(r);
    if (!h) return undefined;
    const answer = await this.s.send(base, h.r, `removeById?id=${h.id}`, this.tenant, { method: 'DELETE' });
    if (!this.s.ok(answer, `removeById ${keyOf(h.r, h.row)}`)) return undefined;
    this.s.check(answer.data === true, () => `removeById ${keyOf(h.r, h.row)} of a live record answered ${String(answer.data)}`);
    this.s.counts.writes++;
    this.s.removed(h);
    return h;
  }

  /** removeByIds of up to three held records of one resource, and an id that never was. */
  async removeByIds(base: string): Promise<void> {
    const first = this.take();
    if (!first) return;
    const gone = [first, ...[1, 2].flatMap(() => this.take(first.r) ?? [])];
    const ids = [...gone.map((h) => h.id), clientId()];
    const answer = await this.s.send(base, first.r, `removeByIds?${ids.map((id) => `ids=${id}`).join('&')}`, this.tenant, {
      method: 'DELETE',
    });
    if (!this.s.ok(answer, `removeByIds ${gone.map((h) => keyOf(h.r, h.row)).join(', ')}`)) return;
    this.s.check(answer.data === true, () => `removeByIds of live records answered ${String(answer.data)}`);
    this.s.counts.writes++;
    for (const h of gone) this.s.removed(h);
  }

  async saveBatch(base: string): Promise<void> {
    const created = [1, 2, 3].map((): Held => ({ r: VST, tenant: this.tenant, id: clientId(), row: this.newRow(VST), revision: 1 }));
    const body = created.map((h) => ({ ...h.row, [VST.idField]: h.id }));
    if (!this.s.ok(await this.s.send(base, VST, 'saveBatch', this.tenant, { body }), 'saveBatch')) return;
    this.s.counts.writes++;
    this.held.push(...created);
    for (const h of created) this.s.stored(h);
  }

  /** A synchronous importList of two new keys and a held one (updated by its key). */
  async importSync(base: string, r: Resource): Promise<void> {
    const created = [1, 2].map((): Held => ({ r, tenant: this.tenant, id: clientId(), row: this.newRow(r), revision: 1 }));
    const updated = pick(this.held.filter((h) => h.r === r));
    const rows = created.map((h) => ({ ...h.row, [r.idField]: h.id }));
    if (updated) rows.push({ ...updated.row, name: this.rename(updated) });
    const answer = await this.s.send(base, r, 'importList', this.tenant, { body: rows });
    if (!this.s.ok(answer, `importList ${r.path}`)) return;
    this.s.counts.writes++;
    const counts = { count: rows.length, inserted: created.length, updated: updated ? 1 : 0 };
    this.s.check(
      JSON.stringify(answer.extraData) === JSON.stringify(counts),
      () => `importList answered ${JSON.stringify(answer.extraData)}, not ${JSON.stringify(counts)}`,
    );
    this.held.push(...created);
    for (const h of created) this.s.stored(h);
    if (updated) {
      updated.row.name = rows[rows.length - 1].name;
      updated.revision++;
      this.s.stored(updated);
    }
  }

  /** data-dictionary's asynchronous importList of new keys: expected once applied (never changed afterwards). */
  async importAsync(base: string): Promise<void> {
    const rows = [1, 2, 3].map(() => this.newRow(DD));
    const answer = await this.s.send(base, DD, 'importList', this.tenant, { body: rows });
    if (!this.s.ok(answer, 'importList data-dictionary')) return;
    this.s.batches.push({ tenant: this.tenant, batchId: String(answer.extraData?.batchId), count: rows.length });
    this.s.counts.writes++;
    for (const row of rows) this.s.expectAtEnd(this.tenant, DD, row, { present: true, names: [String(row.name)], revision: 1 });
  }

  /** One write of any kind through any base, removals preferred once the writer holds many records. */
  async any(): Promise<void> {
    const base = pick(this.s.anyBase);
    const many = this.held.length > 12;
    const step = pick(
      many
        ? ['remove', 'removeMany', 'update', 'saveOrUpdate']
        : ['save', 'save', 'update', 'saveOrUpdate', 'saveBatch', 'import', 'importAsync', 'remove', 'removeMany'],
    );
    if (step === 'save') await this.save(base, pick([DD, DDT, VST]));
    if (step === 'update' && this.held.length) await this.updateById(base, pick(this.held));
    if (step === 'saveOrUpdate') await this.saveOrUpdate(base);
    if (step === 'saveBatch') await this.saveBatch(base);
    if (step === 'import') await this.importSync(base, pick([DDT, VST]));
    if (step === 'importAsync') await this.importAsync(base);
    if (step === 'remove') await this.removeById(base);
    if (step === 'removeMany') await this.removeByIds(base);
  }
}

/**
 * The calls sent as twins: plain creates (one wins) and upserts (both win); data-dictionary's importList is
 * asynchronous (acknowledged with a batch id, applied by a consumer of either replica).
 */
const TWINS = [
  { r: DD, operation: 'save', keys: 1, oneWins: true },
  { r: DDT, operation: 'saveOrUpdate', keys: 1, oneWins: false },
  { r: VST, operation: 'saveBatch', keys: 3, oneWins: true },
  { r: DDT, operation: 'importList', keys: 3, oneWins: false },
  { r: VST, operation: 'importList', keys: 3, oneWins: false },
  { r: DD, operation: 'importList', keys: 3, oneWins: false },
];

/**
 * The same new keys through both replicas at once. A plain save or saveBatch: one is acknowledged and the other
 * refused with 422, and the acknowledged one's records stay. An upsert (saveOrUpdate, importList): both are
 * acknowledged, and each key holds the values of one of them, the same one for all keys of an import.
 */
async function twins(s: Storm, tenant: string, step: number): Promise<void> {
  const { r, operation, keys, oneWins } = TWINS[step % TWINS.length];
  const type = unique('t');
  const bodies = [0, 1].map((side) =>
    Array.from({ length: keys }, (_, k) => rowOf(r, type, `k${k}`, `side${side}.${k}`, { [r.idField]: clientId() })),
  );
  const single = operation === 'save' || operation === 'saveOrUpdate';
  const sides = Math.random() < 0.5 ? s.c.main : [...s.c.main].reverse();
  const answers = await Promise.all(
    sides.map((base, side) => s.send(base, r, operation, tenant, { body: single ? bodies[side][0] : bodies[side] })),
  );
  const what = `${operation} twins ${r.path} ${type}`;
  if (oneWins) {
    // its records, identifiers included, are the ones stored
    const won = [0, 1].filter((side) => s.ok(answers[side], what, [422]));
    s.check(won.length === 1, () => `${what}: ${won.length} of 2 acknowledged (${answers.map((a) => a.status).join(', ')})`);
    if (won.length !== 1) return;
    s.counts.writes++;
    for (const row of bodies[won[0]])
      s.expectAtEnd(tenant, r, row, { present: true, names: [String(row.name)], id: String(row[r.idField]), revision: 1 });
    return;
  }
  const acknowledged = [0, 1].filter((side) => s.ok(answers[side], what));
  if (r === DD)
    for (const side of acknowledged)
      s.batches.push({ tenant, batchId: String(answers[side].extraData?.batchId), count: bodies[side].length });
  upserted(s, tenant, r, bodies, acknowledged, what);
}

/**
 * The same keys upserted by the `acknowledged` of several calls (`bodies` by call, the keys in the same order):
 * each key once, written by each of them (a revision per call), with the values of one, the same for all keys.
 */
function upserted(s: Storm, tenant: string, r: Resource, bodies: Row[][], acknowledged: number[], group: string): void {
  if (!acknowledged.length) return;
  s.counts.writes += acknowledged.length;
  bodies[0].forEach((row, k) => {
    const names = acknowledged.map((call) => String(bodies[call][k].name));
    s.expectAtEnd(tenant, r, row, { present: true, names, revision: acknowledged.length, group });
  });
}

/**
 * A tenant's first writes, through both replicas at once, then read back through each: saves of two keys of
 * data-dictionary, the same new keys imported to data-dictionary-table twice, and value-set-table saved in a
 * batch and imported.
 */
async function freshTenant(s: Storm): Promise<void> {
  const tenant = unique('stormnew');
  s.counts.freshTenants++;
  const [one, two] = s.c.main;
  const dd = ['a', 'b'].map((code) => rowOf(DD, 'fresh', code, code));
  const ddt = [0, 1].map((side) => ['x', 'y'].map((code) => rowOf(DDT, 'fresh', code, `${code}.${side}`)));
  const vst = ['p', 'q'].map((code) => rowOf(VST, 'fresh', code, code));
  const answers = await Promise.all([
    s.send(one, DD, 'save', tenant, { body: dd[0] }),
    s.send(two, DD, 'save', tenant, { body: dd[1] }),
    s.send(one, DDT, 'importList', tenant, { body: ddt[0] }),
    s.send(two, DDT, 'importList', tenant, { body: ddt[1] }),
    s.send(one, VST, 'saveBatch', tenant, { body: [vst[0]] }),
    s.send(two, VST, 'importList', tenant, { body: [vst[1]] }),
  ]);
  const acknowledged = answers.map((a, i) => s.ok(a, `first write ${i} of ${tenant}`));
  const single: [Resource, Row, boolean][] = [
    [DD, dd[0], acknowledged[0]],
    [DD, dd[1], acknowledged[1]],
    [VST, vst[0], acknowledged[4]],
    [VST, vst[1], acknowledged[5]],
  ];
  for (const [r, row, written] of single) {
    if (!written) continue;
    s.counts.writes++;
    s.expectAtEnd(tenant, r, row, { present: true, names: [String(row.name)], revision: 1 });
  }
  upserted(
    s,
    tenant,
    DDT,
    ddt,
    [0, 1].filter((side) => acknowledged[2 + side]),
    `first imports of ${tenant}`,
  );
  if (!acknowledged.every(Boolean)) return;
  for (const base of [two, one]) {
    for (const r of [DD, DDT, VST]) {
      const count = await s.send(base, r, 'count', tenant, { body: {} });
      if (s.ok(count, `count ${r.path} of ${tenant}`))
        s.check(count.data === 2, () => `${tenant}: count of ${r.path} is ${String(count.data)}, not 2`);
    }
    const cached = await s.send(base, DD, 'listCache', tenant, { body: { dataDictionaryTypeCode: 'fresh' } });
    if (s.ok(cached, `listCache of ${tenant}`)) {
      const names = (cached.data as Row[]).map((row) => row.name).sort();
      s.check(JSON.stringify(names) === '["a","b"]', () => `${tenant}: listCache holds ${JSON.stringify(names)}`);
    }
    s.counts.crossReads += 4;
  }
}

/** Rows of the probe tenant after the stable ones in the order, added, moved and removed all the time. */
async function churn(w: Writer, i: number): Promise<void> {
  const base = pick(w.s.anyBase);
  const sort = () => 1000 + Math.floor(Math.random() * 1000);
  if (w.held.length < CHURN_HELD && (w.held.length === 0 || i % 3 === 0)) await w.save(base, DD, { sort: sort() });
  else if (i % 3 === 1) await w.updateById(base, pick(w.held), { sort: sort() });
  else if (i % 2) await w.removeById(base);
  else await w.removeByIds(base);
}

/**
 * Pages of the probe tenant (unfiltered or filtered on its type) through any base: pages 3 and 4 of 10 hold
 * the stable rows s21..s40 whatever the churn; a first page that shows the end has total = rows; the page
 * past the stable rows holds total - STABLE rows; counts stay within what the churn can reach.
 */
async function probe(s: Storm, tenant: string, type: string, i: number): Promise<void> {
  const base = s.anyBase[i % 3];
  const filter = i % 2 ? { dataDictionaryTypeCode: type } : {};
  const what = `${JSON.stringify(filter)} through ${base}`;
  const page = async (current: number, pageSize: number) => {
    const answer = await s.send(base, DD, 'page', tenant, { body: { ...filter, current, pageSize } });
    if (!s.ok(answer, `page ${current} ${what}`)) return undefined;
    s.counts.pagesProbed++;
    const rows = answer.data as Row[];
    const total = Number(answer.extraData?.total);
    s.check(
      total >= STABLE && total <= STABLE + MOST_CHURN && answer.extraData?.pages === Math.ceil(total / pageSize),
      () => `page ${current} ${what}: total ${total}, pages ${String(answer.extraData?.pages)}`,
    );
    return { codes: rows.map((row) => String(row.dataDictionaryCode)), sorts: rows.map((row) => Number(row.sort)), total };
  };
  for (const current of [3, 4]) {
    const answer = await page(current, 10);
    const stable = Array.from({ length: 10 }, (_, k) => stableCode((current - 1) * 10 + k + 1));
    if (answer)
      s.check(answer.codes.join() === stable.join(), () => `page ${current} ${what}: ${answer.codes.join()} (total ${answer.total})`);
  }
  const first = await page(1, 100);
  if (first) {
    const expected = Array.from({ length: STABLE }, (_, k) => stableCode(k + 1)).join();
    s.check(
      first.total === first.codes.length &&
        first.codes.slice(0, STABLE).join() === expected &&
        first.sorts.slice(STABLE).every((x) => x >= 1000),
      () => `first page ${what}: ${first.codes.length} rows, total ${first.total}`,
    );
  }
  const last = await page(5, 10);
  if (last)
    s.check(
      last.codes.length === last.total - STABLE && last.sorts.every((x) => x >= 1000),
      () => `page 5 ${what}: ${last.codes.length} rows, total ${last.total}`,
    );
  const count = await s.send(base, DD, 'count', tenant, { body: filter });
  if (s.ok(count, `count ${what}`))
    s.check(Number(count.data) >= STABLE && Number(count.data) <= STABLE + MOST_CHURN, () => `count ${what}: ${String(count.data)}`);
  const one = await s.send(base, DD, 'count', tenant, { body: { ...filter, dataDictionaryCode: stableCode(7) } });
  if (s.ok(one, `count of ${stableCode(7)}`)) s.check(one.data === 1, () => `count of ${stableCode(7)} ${what}: ${String(one.data)}`);
}

const stableCode = (n: number): string => `s${String(n).padStart(2, '0')}`;

/**
 * A write acknowledged by one replica, then reads through the other: getById, list, count, a page total (first
 * page and a later one) and, for data-dictionary, listCache all show it.
 */
async function readYourWrites(w: Writer, r: Resource, i: number): Promise<void> {
  const [a, b] = i % 2 ? [w.s.c.main[1], w.s.c.main[0]] : [w.s.c.main[0], w.s.c.main[1]];
  const saved = await w.save(a, r);
  if (saved) await seen(w, r, b, saved, 'a save');
  if (i % 3 === 1 && w.held.length) {
    const h = pick(w.held);
    await w.updateById(b, h);
    await seen(w, r, a, h, 'an update');
  }
  if (i % 4 === 3 && w.held.length > 2) {
    const gone = await w.removeById(a);
    if (gone) await seen(w, r, b, gone, 'a removal');
  }
}

async function seen(w: Writer, r: Resource, base: string, h: Held, change: string): Promise<void> {
  const s = w.s;
  const what = `after ${change} of ${keyOf(r, h.row)} through the other replica, ${base}`;
  const live = w.held.includes(h);
  const byId = await s.send(base, r, `getById?id=${h.id}`, w.tenant);
  if (s.ok(byId, `getById ${what}`)) {
    const record = byId.data as Row | null;
    s.check(
      live ? record?.name === h.row.name && record?.revision === h.revision : record === null,
      () => `getById ${what}: ${JSON.stringify(record && { name: record.name, revision: record.revision })}`,
    );
  }
  const filter = { [r.key[0]]: w.type };
  const listed = w.held.map((x) => `${x.id}:${String(x.row.name)}`).sort();
  const count = String(w.held.length);
  const total = (a: Answer) => String(a.extraData?.total);
  const reads: [string, Row, (a: Answer) => string, string][] = [
    ['list', filter, (a) => rowsOf(r, a).join(), listed.join()],
    ['count', filter, (a) => String(a.data), count],
    ['page', { ...filter, current: 1, pageSize: 0 }, total, count],
    ['page', { ...filter, current: 2, pageSize: 2 }, total, count],
  ];
  if (r === DD) reads.push(['listCache', filter, (a) => rowsOf(r, a).join(), listed.join()]);
  for (const [operation, body, shown, wanted] of reads) {
    const answer = await s.send(base, r, operation, w.tenant, { body });
    s.counts.crossReads++;
    if (s.ok(answer, `${operation} ${what}`))
      s.check(shown(answer) === wanted, () => `${operation} ${JSON.stringify(body)} ${what}: ${shown(answer)}, not ${wanted}`);
  }
}

const rowsOf = (r: Resource, a: Answer): string[] => (a.data as Row[]).map((row) => `${String(row[r.idField])}:${String(row.name)}`).sort();

/** Every import batch APPLIED with all its rows. */
async function awaitBatches(s: Storm): Promise<void> {
  const deadline = Date.now() + APPLY_WAIT_MS;
  for (const { tenant, batchId, count } of s.batches) {
    for (;;) {
      const answer = await s.send(s.c.gateway, DD, `importStatus?batchId=${batchId}`, tenant);
      const batch = answer.data as { status?: string; appliedCount?: number } | null;
      if (batch?.status === 'APPLIED') {
        s.check(batch.appliedCount === count, () => `batch ${batchId}: ${JSON.stringify(batch)}`);
        break;
      }
      if ((batch?.status && batch.status !== 'PENDING') || Date.now() > deadline) {
        s.problem(`batch ${batchId} of ${tenant} not applied: ${JSON.stringify(answer)}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Each journaled tenant and resource as the API lists it: each key once, as journaled, and no other row. */
async function checkJournal(s: Storm): Promise<void> {
  const scopes = [...s.journal.values()];
  const next = { at: 0 };
  const worker = async (w: number) => {
    for (let at = next.at++; at < scopes.length; at = next.at++) {
      const { tenant, r, keys } = scopes[at];
      const answer = await s.send(s.c.main[w % 2], r, 'list', tenant, { body: { sqlQueryLimit: 10_000 } });
      if (!s.ok(answer, `final list of ${r.path} in ${tenant}`)) continue;
      const found = new Map<string, Row[]>();
      for (const row of answer.data as Row[]) found.set(keyOf(r, row), [...(found.get(keyOf(r, row)) ?? []), row]);
      const groups = new Map<string, Set<number>>();
      for (const [key, expected] of keys) {
        const rows = found.get(key) ?? [];
        found.delete(key);
        const where = `${r.path} ${key} in ${tenant}`;
        if (!expected.present) {
          s.check(rows.length === 0, () => `${where}: removed, yet ${rows.length} live`);
          continue;
        }
        if (rows.length !== 1) {
          s.problem(`${where}: acknowledged, ${rows.length} live`);
          continue;
        }
        const [row] = rows;
        const choice = expected.names.indexOf(String(row.name));
        s.check(
          choice >= 0 &&
            (expected.id === undefined || row[r.idField] === expected.id) &&
            (expected.revision === undefined || row.revision === expected.revision),
          () =>
            `${where}: ${JSON.stringify({ name: row.name, id: row[r.idField], revision: row.revision })}, expected ${JSON.stringify(expected)}`,
        );
        if (expected.group) groups.set(expected.group, (groups.get(expected.group) ?? new Set()).add(choice));
      }
      for (const [group, choices] of groups) s.check(choices.size === 1, () => `${group}: keys of one import hold values of both calls`);
      for (const key of found.keys()) s.problem(`${r.path} ${key} in ${tenant}: live, never acknowledged`);
    }
  };
  await Promise.all([0, 1, 2, 3].map(worker));
}

/**
 * For every record table and tenant, the kept live count minus the live rows' COUNT(*), where not 0; all read in
 * one snapshot. Every record table of main-service's database is counted (its migrations give each the triggers).
 * `pairs`: how many tables and tenants were compared.
 */
async function liveCountMismatches(database: string): Promise<{ pairs: number; mismatches: string[] }> {
  const dataSource = await new DataSource({ type: 'mysql', url: database }).initialize();
  const runner = dataSource.createQueryRunner();
  try {
    const difference = new Map<string, number>();
    const add = (table: string, tenant: string, live: number) =>
      difference.set(`${table} ${tenant}`, (difference.get(`${table} ${tenant}`) ?? 0) + live);
    const tables = await recordTables(runner);
    expect(tables).toEqual(expect.arrayContaining(['configuration_data_dictionary', 'configuration_data_dictionary_table']));
    await runner.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
    const kept = await runner.query(
      `SELECT table_name AS tbl, tenant_id AS tenant, SUM(live) AS live FROM ${LIVE_COUNT_TABLE} GROUP BY 1, 2`,
    );
    for (const row of kept as { tbl: string; tenant: string; live: string }[]) add(row.tbl, row.tenant, Number(row.live));
    for (const table of tables) {
      const rows = await runner.query(`SELECT tenant_id AS tenant, COUNT(*) AS live FROM \`${table}\` WHERE delete_time = ? GROUP BY 1`, [
        LIVE,
      ]);
      for (const row of rows as { tenant: string; live: string }[]) add(table, row.tenant, -Number(row.live));
    }
    await runner.query('COMMIT');
    const mismatches = [...difference].filter(([, d]) => d !== 0).map(([scope, d]) => `${scope}: live_count - COUNT(*) = ${d}`);
    return { pairs: difference.size, mismatches };
  } finally {
    await runner.release();
    await dataSource.destroy();
  }
}

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
        `(${stormed.refusals} refused twins), ${stormed.pagesProbed} pages probed, ${stormed.crossReads} reads across replicas, ` +
        `${stormed.freshTenants} new tenants, ${s.batches.length} import batches; ${s.journal.size} tenant resources and ` +
        `${[...s.journal.values()].reduce((n, j) => n + j.keys.size, 0)} keys checked; live counts of ${pairs} tables and tenants compared; ` +
        `${s.problems.length} problems`,
    );
    expect(s.problems.slice(0, 40)).toEqual([]);
    expect(mismatches).toEqual([]);
    // each tenant and resource the storm wrote has its live count (0 once all its records are removed)
    expect(pairs).toBeGreaterThanOrEqual(s.journal.size);
    expect(stormed.pagesProbed).toBeGreaterThan(50);
  }, 240_000);
});
