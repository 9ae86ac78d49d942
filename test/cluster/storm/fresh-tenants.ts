/**
 * A brand-new tenant's first writes through both replicas at once: the first rows of a tenant are where
 * its live counts and caches start, so two replicas racing there must still agree afterwards.
 */
import { unique } from '../cluster-support';
import { Storm } from './account';
import { DD, DDT, Resource, Row, rowOf, VST } from './resources';
import { upserted } from './twins';

/**
 * A tenant's first writes, through both replicas at once, then read back through each: saves of two keys of
 * data-dictionary, the same new keys imported to data-dictionary-table twice, and value-set-table saved in a
 * batch and imported.
 */
export async function freshTenant(s: Storm): Promise<void> {
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
