/**
 * Writer: one client's writes with every write operation (save, updateById, saveOrUpdate, removeById,
 * removeByIds, saveBatch, importList synchronous and asynchronous), each journaled once acknowledged. It alone
 * changes the records it holds, so it knows what each of them must be at the end.
 */
import { randomBytes } from 'node:crypto';
import { unique } from '../cluster-support';
import { Held, Storm } from './account';
import { clientId, DD, DDT, keyOf, pick, Resource, Row, rowOf, VST } from './resources';

/** One client's writes, each through the base it is given, on records it alone changes (`held`) and on new keys. */
export class Writer {
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
