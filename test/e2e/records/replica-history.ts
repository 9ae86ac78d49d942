/**
 * The history under concurrent writers (docs/contract.md "History"): two replicas of one database update, delete,
 * restore and purge the same records at the same moments, and afterwards every acknowledged change has exactly its
 * entry and no entry lacks its change: as many UPDATE entries as acknowledged updates (each with its own value), as
 * many DELETE, RESTORE and PURGE entries as calls that answered true, and no revision raised twice.
 * MariaDB only: replicas are separate processes on a database server (see replica-upsert-twins.ts).
 */
import { createSharedDatabase, TestDatabase, usingMysql } from '../../support/database';
import { CONFIG, Envelope, startApp, TestApp } from '../../support/test-app';

const P = `${CONFIG}/data-dictionary-table`;
const RECORDS = 4;
const ROUNDS = 6;

type Entry = { action: string; revision: number; changes: { field: string; newValue?: unknown }[] };

(usingMysql() ? describe : describe.skip)('history of the same records written through two replicas at once', () => {
  let database: TestDatabase;
  let replicas: TestApp[] = [];
  const type = `rh${Date.now().toString(36)}`;

  beforeAll(async () => {
    database = await createSharedDatabase();
    replicas = [await startApp({}, { shared: database }), await startApp({}, { shared: database })];
  });
  afterAll(async () => {
    for (const t of replicas) await t.close();
    await database?.drop();
  });

  const ok = (res: Envelope) => {
    expect({ status: res.status, error: res.error }).toEqual({ status: 200, error: null });
    return res;
  };

  it('every acknowledged update, delete, restore and purge has exactly one entry, on either replica', async () => {
    const ids: string[] = [];
    for (let i = 0; i < RECORDS; i++) {
      const id = `${type}r${i}`;
      const body = {
        dataDictionaryTableId: id,
        dataDictionaryTypeCode: type,
        dataDictionaryCode: 'c',
        row: String(i),
        key: `k${i}`,
        value: 'v0',
        name: 'n',
        sort: 1,
      };
      ok(await replicas[0].post(`${P}/save`, body));
      ids.push(id);
    }
    // what each record's calls acknowledged
    const acknowledged = ids.map(() => ({ UPDATE: new Set<string>(), DELETE: 0, RESTORE: 0, PURGE: 0 }));
    for (let round = 0; round < ROUNDS; round++) {
      await Promise.all(
        ids.flatMap((id, r) =>
          replicas.map(async (t, side) => {
            const value = `r${round}s${side}`;
            // both replicas update at once, then one deletes while the other restores
            const updated = await t.put(`${P}/updateById`, { dataDictionaryTableId: id, value });
            if (updated.status === 200 && updated.data === true) acknowledged[r].UPDATE.add(value);
            const op = side === 0 ? t.del(`${P}/removeById?id=${id}`) : t.put(`${P}/restoreById?id=${id}`, undefined);
            const answer = ok(await op);
            if (answer.data === true) acknowledged[r][side === 0 ? 'DELETE' : 'RESTORE']++;
          }),
        ),
      );
    }
    // the records end deleted, then half of them are purged by both replicas at once
    for (const [r, id] of ids.entries())
      if (ok(await replicas[r % 2].del(`${P}/removeById?id=${id}`)).data === true) acknowledged[r].DELETE++;
    const purged = ids.slice(0, RECORDS / 2);
    for (const id of purged) {
      const answers = await Promise.all(replicas.map((t) => t.del(`${P}/purgeByIds?ids=${id}`)));
      acknowledged[ids.indexOf(id)].PURGE += answers.map(ok).filter((a) => a.data === true).length;
    }

    for (const [r, id] of ids.entries()) {
      const page = ok(await replicas[r % 2].post(`${P}/historyPage`, { recordId: id, current: 1, pageSize: 1000 }));
      const entries = page.data as Entry[];
      const count = (action: string) => entries.filter((e) => e.action === action).length;
      const expected = acknowledged[r];
      expect({ id, CREATE: count('CREATE'), DELETE: count('DELETE'), RESTORE: count('RESTORE'), PURGE: count('PURGE') }).toEqual({
        id,
        CREATE: 1,
        DELETE: expected.DELETE,
        RESTORE: expected.RESTORE,
        PURGE: expected.PURGE,
      });
      expect(expected.PURGE).toBe(purged.includes(id) ? 1 : 0);
      const updates = entries.filter((e) => e.action === 'UPDATE');
      expect(updates).toHaveLength(expected.UPDATE.size);
      if (!purged.includes(id)) {
        // each entry holds the value of one acknowledged update (a purged record's values are blanked)
        const values = updates.map((e) => e.changes.find((c) => c.field === 'value')?.newValue as string);
        expect(new Set(values)).toEqual(expected.UPDATE);
      }
      // each change that raises the revision (all but a logical deletion and the purge) has one of its own
      const revisions = entries.filter((e) => !['DELETE', 'PURGE'].includes(e.action)).map((e) => e.revision);
      expect(new Set(revisions).size).toBe(revisions.length);
    }
  }, 120_000);
});
