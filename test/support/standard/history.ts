/** The change history: historyPage over the entries every write of a record leaves, in the write's own transaction. */
import type { Json } from '../json';
import { seed } from './client';
import { expectFailure, ResourceContext, TENANT_B } from './context';

/** Fields of a record that are never an entry's change (who wrote, how it is kept). */
const BOOKKEEPING = ['tenantId', 'revision', 'createdUsername', 'createdTime', 'lastModifiedUsername', 'lastModifiedTime', 'deleteTime'];

type Change = { field: string; oldValue?: unknown; newValue?: unknown; masked?: boolean };

export function describeHistory({ r, c, P, id, v, app, limitedApp }: ResourceContext): void {
  describe('history', () => {
    const historyOf = async (body: Json, claims?: typeof TENANT_B) => {
      const res = await c.historyPage({ current: 1, pageSize: 1000, ...body }, claims);
      expect(res).toMatchObject({ status: 200, error: null });
      return res;
    };
    /** The record's entries, oldest first. */
    const entriesOf = async (recId: string) => [...((await historyOf({ recordId: recId })).data as Json[])].reverse();
    const changed = (entry: Json) => (entry.changes as Change[]).map((change) => change.field).sort();

    it('every write of a record leaves one entry: CREATE with every given field, UPDATE with the changed ones, DELETE, RESTORE, PURGE', async () => {
      const rec = await c.create();
      const [created] = await entriesOf(id(rec));
      expect(created).toMatchObject({
        recordId: id(rec),
        revision: 1,
        action: 'CREATE',
        username: 'alice',
        time: rec.createdTime,
        requestId: expect.any(String),
        purged: false,
      });
      const given = Object.keys(rec).filter((f) => rec[f] !== null && f !== r.idField && !BOOKKEEPING.includes(f));
      expect(changed(created)).toEqual([...given, ...(r.writeOnly ?? [])].sort());
      for (const field of given)
        expect((created.changes as Change[]).find((change) => change.field === field)).toEqual({
          field,
          oldValue: null,
          newValue: rec[field],
        });

      const value = v('history');
      expect(await c.update({ [r.idField]: id(rec), [r.updateField]: value })).toMatchObject({ data: true });
      // the same value again changes no column: no entry
      expect(await c.update({ [r.idField]: id(rec), [r.updateField]: value })).toMatchObject({ data: true });
      expect(await c.removeById(id(rec))).toMatchObject({ data: true });
      expect(await c.restoreById(id(rec))).toMatchObject({ data: true });
      expect(await c.removeByIds([id(rec)])).toMatchObject({ data: true });
      const entries = await entriesOf(id(rec));
      expect(entries.map((entry) => entry.action)).toEqual(['CREATE', 'UPDATE', 'DELETE', 'RESTORE', 'DELETE']);
      // the repeated update raised the revision without an entry; a logical deletion keeps it
      expect(entries.map((entry) => entry.revision)).toEqual([1, 2, 3, 4, 4]);
      expect(entries[1].changes).toEqual([{ field: r.updateField, oldValue: rec[r.updateField], newValue: value }]);
      for (const entry of entries) expect(entry).toMatchObject({ username: 'alice', requestId: expect.any(String), purged: false });
      expect(new Set(entries.map((entry) => entry.requestId)).size).toBe(entries.length);
      for (const entry of entries.slice(2)) expect(entry.changes).toEqual([]);
      const ids = entries.map((entry) => BigInt(entry.historyId as string));
      expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));

      expect(await c.purgeByIds([id(rec)])).toMatchObject({ data: true });
      const purged = await entriesOf(id(rec));
      expect(purged.map((entry) => entry.action)).toEqual(['CREATE', 'UPDATE', 'DELETE', 'RESTORE', 'DELETE', 'PURGE']);
      expect(purged[5]).toMatchObject({ username: 'alice', requestId: expect.any(String), changes: [] });
      // the values are blanked; fields, times and who stay
      for (const [i, entry] of purged.entries()) {
        expect(entry).toMatchObject({ purged: true, time: entries[i]?.time ?? expect.any(Number), username: 'alice' });
        expect(changed(entry)).toEqual(i < 5 ? changed(entries[i]) : []);
        for (const change of entry.changes as Change[]) expect(Object.keys(change)).toEqual(['field']);
      }
    });

    if (r.writeOnly?.length)
      it(`secret fields ${r.writeOnly.join(', ')} appear masked, never with a value`, async () => {
        const body = r.sample(seed());
        const rec = await c.create(undefined, body);
        const replaced = Object.fromEntries(r.writeOnly!.map((secret) => [secret, `${String(body[secret])}-new`]));
        expect(await c.update({ [r.idField]: id(rec), ...replaced })).toMatchObject({ data: true });
        const res = await historyOf({ recordId: id(rec) });
        const [updated, created] = res.data as Json[];
        for (const secret of r.writeOnly!) {
          expect((created.changes as Change[]).find((change) => change.field === secret)).toEqual({ field: secret, masked: true });
          expect((updated.changes as Change[]).find((change) => change.field === secret)).toEqual({ field: secret, masked: true });
          expect(JSON.stringify(res)).not.toContain(String(body[secret]));
        }
        const stored = (await app().dataSource.query('SELECT changed_values AS v FROM record_history WHERE record_id = ?', [id(rec)])) as {
          v: string;
        }[];
        for (const row of stored) for (const secret of r.writeOnly!) expect(row.v).not.toContain(String(body[secret]));
      });

    it('another tenant’s history is out of reach', async () => {
      const rec = await c.create();
      const theirs = await historyOf({ recordId: id(rec) }, TENANT_B);
      expect(theirs.data).toEqual([]);
      expect(theirs.extraData).toMatchObject({ total: 0 });
      const all = await historyOf({}, TENANT_B);
      expect((all.data as Json[]).map((entry) => entry.recordId)).not.toContain(id(rec));
    });

    it('historyPage filters by recordId, username, action and time, pages newest first with the page’s extraData', async () => {
      const [first, second] = [await c.create(), await c.create()];
      expect(await c.update({ [r.idField]: id(first), [r.updateField]: v('filtered') })).toMatchObject({ data: true });
      const creates = (await historyOf({ action: 'CREATE' })).data as Json[];
      expect(creates.every((entry) => entry.action === 'CREATE')).toBe(true);
      expect(creates.map((entry) => entry.recordId).slice(0, 2)).toEqual([id(second), id(first)]);
      expect(((await historyOf({ recordId: id(first), action: 'UPDATE' })).data as Json[]).length).toBe(1);
      expect((await historyOf({ username: 'nobody-here' })).data).toEqual([]);
      const time = first.createdTime as number;
      const timed = (await historyOf({ recordId: id(first), timeStart: time, timeEnd: time })).data as Json[];
      expect(timed.map((entry) => entry.action)).toContain('CREATE');
      expect((await historyOf({ recordId: id(first), timeEnd: time - 1 })).data).toEqual([]);
      const page = await c.historyPage({ recordId: id(first), current: 2, pageSize: 1 });
      expect(page).toMatchObject({ status: 200, extraData: { current: 2, size: 1, total: 2, pages: 2 } });
      expect((page.data as Json[]).map((entry) => entry.action)).toEqual(['CREATE']);
    });

    it('historyPage refuses a bad body with a 400 naming the field, never a 500', async () => {
      const path = `${P}/historyPage`;
      expectFailure(await app().post(path, { action: 'ERASE', current: 1, pageSize: 10 }), 400, path, 'action');
      expectFailure(await app().post(path, { recordId: 'x'.repeat(65), current: 1, pageSize: 10 }), 400, path, 'recordId');
      expectFailure(await app().post(path, { timeStart: -1, current: 1, pageSize: 10 }), 400, path, 'timeStart');
      expectFailure(await app().post(path, { timeStart: 2, timeEnd: 1, current: 1, pageSize: 10 }), 400, path, 'timeStart');
      expectFailure(await limitedApp().post(path, { current: 1, pageSize: 6 }), 400, path, 'pageSize');
    });
  });
}
