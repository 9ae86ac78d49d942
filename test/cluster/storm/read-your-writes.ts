/**
 * Readers: a write acknowledged by one replica must show at once in every read through the other one, so
 * no replica answers from a cache or a count the other's write has made stale.
 */
import { Answer } from '../cluster-support';
import { Held } from './account';
import { DD, keyOf, pick, Resource, Row } from './resources';
import { Writer } from './writers';

/**
 * A write acknowledged by one replica, then reads through the other: getById, list, count, a page total (first
 * page and a later one) and, for data-dictionary, listCache all show it.
 */
export async function readYourWrites(w: Writer, r: Resource, i: number): Promise<void> {
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
