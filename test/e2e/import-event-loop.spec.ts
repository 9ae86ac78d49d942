/**
 * A large synchronous import must not freeze the process: while 50,000 value-set rows are imported
 * (first all inserts, then the same rows again, all updates), `/health/live` is polled on a fixed
 * 50 ms schedule and every poll must be answered within LIVE_WITHIN_MS of its due time. A poll's latency is
 * counted from when it was due, so a blocked event loop shows up whether it delays the answer or the
 * timer that sends the poll. Writes sent while an import's transaction is open (it pauses between its
 * statements) are answered and kept even when the import rolls back. SQLite and MariaDB.
 */
import { request } from 'node:http';
import { AddressInfo } from 'node:net';
import { startApp, TestApp } from '../support/test-app';
import { LIVE_WITHIN_MS, pollLiveDuring } from '../support/live-poller';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- envelopes are checked with toMatchObject
type Json = Record<string, any>;

const ROWS = 50_000;

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await startApp();
  await t.app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close();
});

/** One request on its own connection (no keep-alive socket the server may close between polls); resolves to the parsed body. */
function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Json> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers = { Authorization: t.auth(), ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}) };
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ httpStatus: res.statusCode, ...JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const VALUE_SET = '/main-service/system-api/configuration/value-set';

describe('a 50,000-row importList keeps the event loop free', () => {
  const type = `load${Date.now().toString(36)}`;
  const rows = (label: string, count = ROWS, typeCode = type) => Array.from({ length: count }, (_, i) => ({ valueSetTypeCode: typeCode, value: `v${i}`, name: `${label}${i}`, sort: i % 100 }));

  beforeAll(async () => {
    // the first calls of each code path are compiled on the fly: warm them up outside the measurement
    for (const counts of [{ inserted: 2_000 }, { updated: 2_000 }])
      expect(await call('POST', `${VALUE_SET}/importList`, rows('warm', 2_000, `${type}w`))).toMatchObject({ status: 200, extraData: counts });
  });

  it.each([
    ['all inserts', 'first', { inserted: ROWS, updated: 0 }, 1],
    ['all updates', 'second', { inserted: 0, updated: ROWS }, 2],
  ])('%s: health/live answers in time throughout', async (_, label, counts, revision) => {
    const { result, latencies } = await pollLiveDuring(base, call('POST', `${VALUE_SET}/importList`, rows(label)));
    expect(result).toMatchObject({ status: 200, data: true, extraData: { count: ROWS, ...counts } });
    expect(Math.max(...latencies)).toBeLessThan(LIVE_WITHIN_MS);
    expect(latencies.length).toBeGreaterThanOrEqual(5); // the polls did run while the import did

    expect(await call('POST', `${VALUE_SET}/count`, { valueSetTypeCode: type })).toMatchObject({ status: 200, data: ROWS });
    const [sample] = (await call('POST', `${VALUE_SET}/list`, { valueSetTypeCode: type, value: 'v4242' })).data as Json[];
    expect(sample).toMatchObject({ name: `${label}4242`, revision });
  }, 120_000);
});

/**
 * The import pauses inside its transaction. Requests answered meanwhile must stay outside it: on SQLite,
 * where every statement of the process shares one connection, they wait until it ends instead of
 * running inside it (where the import's rollback would take their acknowledged writes with it).
 */
describe('requests served while an import transaction is open', () => {
  const CONFIG = '/main-service/system-api/configuration';

  it('keep their writes when the import fails and rolls back, and every one is answered', async () => {
    const s = `roll${Date.now().toString(36)}`;
    expect(await call('POST', `${VALUE_SET}/save`, { valueSetTypeCode: s, value: 'taken', valueSetId: `${s}taken` })).toMatchObject({ status: 200 });
    // the last row reuses a live record's identifier: the import fails at its last statement
    const rows: Json[] = Array.from({ length: 20_000 }, (_, i) => ({ valueSetTypeCode: s, value: `v${i}`, name: 'n' }));
    rows.push({ valueSetTypeCode: s, value: 'last', name: 'n', valueSetId: `${s}taken` });

    // plain writes, writes in a transaction of their own, and another import, sent while it runs
    const writes: { path: string; body: Json }[] = [];
    const answers: Promise<Json>[] = [];
    const { result } = await pollLiveDuring(base, call('POST', `${VALUE_SET}/importList`, rows), () => {
      const i = writes.length;
      writes.push(
        i % 3 === 0
          ? { path: 'value-set-type/save', body: { valueSetTypeCode: `${s}-${i}` } }
          : i % 3 === 1
            ? { path: 'data-dictionary-table/saveOrUpdate', body: { dataDictionaryTypeCode: s, dataDictionaryCode: 'c', row: String(i), key: 'k' } }
            : { path: 'value-set-map/importList', body: [{ valueSetTypeCode: s, key: `m${i}`, value: 'x' }] },
      );
      answers.push(call('POST', `${CONFIG}/${writes[i].path}`, writes[i].body));
    });
    expect(result).toMatchObject({ status: 422, error: 'Value set exists' });
    expect(writes.length).toBeGreaterThanOrEqual(6);
    for (const answer of await Promise.all(answers)) expect(answer).toMatchObject({ status: 200, data: true });

    const count = async (segment: string, filter: Json) => (await call('POST', `${CONFIG}/${segment}/count`, filter)).data as number;
    expect(await count('value-set', { valueSetTypeCode: s })).toBe(1); // nothing of the import
    const sent = (path: string) => writes.filter((w) => w.path === path).length;
    const types = (await call('POST', `${CONFIG}/value-set-type/list`, {})).data as Json[];
    expect(types.filter((x) => x.valueSetTypeCode.startsWith(`${s}-`))).toHaveLength(sent('value-set-type/save'));
    expect(await count('data-dictionary-table', { dataDictionaryTypeCode: s })).toBe(sent('data-dictionary-table/saveOrUpdate'));
    expect(await count('value-set-map', { valueSetTypeCode: s })).toBe(sent('value-set-map/importList'));
  }, 60_000);
});
