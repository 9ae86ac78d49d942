/**
 * Twins: the same new keys sent through both replicas at once, and what each kind of write must leave behind
 * (one winner for plain creates, one call's values per key for upserts). upserted is shared with the first
 * writes of new tenants, which upsert the same keys twice too.
 */
import { unique } from '../cluster-support';
import { Storm } from './account';
import { clientId, DD, DDT, Resource, Row, rowOf, VST } from './resources';

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
export async function twins(s: Storm, tenant: string, step: number): Promise<void> {
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
export function upserted(s: Storm, tenant: string, r: Resource, bodies: Row[][], acknowledged: number[], group: string): void {
  if (!acknowledged.length) return;
  s.counts.writes += acknowledged.length;
  bodies[0].forEach((row, k) => {
    const names = acknowledged.map((call) => String(bodies[call][k].name));
    s.expectAtEnd(tenant, r, row, { present: true, names, revision: acknowledged.length, group });
  });
}
