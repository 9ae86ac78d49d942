/**
 * The probe tenant: STABLE rows first in the order and churn after them, so the pages over the stable rows
 * must not move whatever the churn does, which holds only when rows and total come from one snapshot.
 */
import { Storm } from './account';
import { DD, pick, Row } from './resources';
import { Writer } from './writers';

/** The prober's tenant: rows s01..s40 with sort 1..40, and at most CHURN_HELD per churn writer after them (sort 1000+). */
export const STABLE = 40;
export const CHURN_WRITERS = 2;
const CHURN_HELD = 4;
const MOST_CHURN = CHURN_WRITERS * CHURN_HELD;

export const stableCode = (n: number): string => `s${String(n).padStart(2, '0')}`;

/** Rows of the probe tenant after the stable ones in the order, added, moved and removed all the time. */
export async function churn(w: Writer, i: number): Promise<void> {
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
export async function probe(s: Storm, tenant: string, type: string, i: number): Promise<void> {
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
