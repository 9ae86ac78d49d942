import { DataSource, EntityManager, FindOptionsWhere, In, Repository, SelectQueryBuilder } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { AppException } from '../http/app-exception';
import { BodyStatus } from '../http/body-status';
import { WithExtra } from '../http/envelope';
import { BaseRecord } from '../persistence/base-record';
import { LIVE } from '../persistence/columns';
import { isDuplicateKeyError } from '../persistence/db-errors';
import { newId } from '../persistence/ids';
import { RequestContext } from '../tenancy/request-context';
import { ListControls, PageControls } from './query-controls';
import { Resource } from './resource';
import { exclusiveTransaction, mayPauseInTransaction } from './exclusive-transaction';
import { multiRowInsert, multiRowUpdateById, runsOfSameFields } from './multi-row-sql';
import { TimeSlice } from './time-slice';
import { TtlCache } from './ttl-cache';

/** Who writes: the tenant every query is confined to, and the username stamped on records. */
export interface Scope {
  tenantId: string;
  username: string;
}

export function requestScope(): Scope {
  const { tenantId, username } = RequestContext.principal();
  return { tenantId, username };
}

export interface UpsertResult {
  inserted: number;
  updated: number;
}

type Row = Record<string, unknown>;

/** A row of an upsert: its uniqueness key and column values, the client's identifier apart. */
interface UpsertRow {
  id?: string;
  key: Row;
  keyText: string;
  columns: Row;
}

/** Keys looked up per query by upsertMany, and rows per multi-row INSERT or upsert statement. */
const KEY_LOOKUP_CHUNK = 500;
const WRITE_CHUNK = 250;

/**
 * The only path to a resource's table. Every statement carries the caller's tenant and the live
 * sentinel; another tenant's ids behave as absent.
 */
export class CrudService<E extends BaseRecord> {
  constructor(
    readonly resource: Resource<E>,
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly cache: TtlCache,
  ) {
    this.assertWriteOnlyColumns();
  }

  /** A write-only column that TypeORM would select leaks on every read: refuse to start instead. */
  private assertWriteOnlyColumns(): void {
    const metadata = this.dataSource.getMetadata(this.resource.entity);
    for (const column of this.resource.writeOnly ?? []) {
      if (metadata.findColumnWithPropertyName(column)?.isSelect !== false)
        throw new Error(`${this.resource.path}: write-only column ${column} must exist and be declared with select: false`);
    }
  }

  private repo(manager: EntityManager = this.dataSource.manager): Repository<E> {
    return manager.getRepository(this.resource.entity);
  }

  private where(tenantId: string, extra: Row = {}): FindOptionsWhere<E> {
    return { ...extra, tenantId, deleteTime: LIVE } as FindOptionsWhere<E>;
  }

  private filtered(tenantId: string, body: Row): SelectQueryBuilder<E> {
    const filters: Row = {};
    for (const field of this.resource.filters) if (body[field] !== undefined && body[field] !== null) filters[field] = body[field];
    const qb = this.repo().createQueryBuilder('r').where(this.where(tenantId, filters));
    const range = this.timeRange(body);
    if (range?.start !== undefined) qb.andWhere(`r.${range.field} >= :rangeStart`, { rangeStart: range.start });
    if (range?.end !== undefined) qb.andWhere(`r.${range.field} <= :rangeEnd`, { rangeEnd: range.end });
    return qb;
  }

  /** The request's bounds on the resource's time field, if it has one (validated as integers by the DTO). */
  private timeRange(body: Row): { field: string; start?: number; end?: number } | undefined {
    const field = this.resource.timeRange;
    if (!field) return undefined;
    const bound = (suffix: string) => (body[`${field}${suffix}`] ?? undefined) as number | undefined;
    const [start, end] = [bound('Start'), bound('End')];
    if (start !== undefined && end !== undefined && start > end) throw AppException.validation(`${field}Start must not be greater than ${field}End`);
    return { field, start, end };
  }

  private ordered(qb: SelectQueryBuilder<E>, controls: ListControls): SelectQueryBuilder<E> {
    const sorter = controls.sqlQuerySorter;
    if (sorter && !(this.resource.sortable as string[]).includes(sorter.field))
      throw AppException.validation(`sqlQuerySorter.field must be one of: ${this.resource.sortable.join(', ')}`);
    const sorts: [string, 'ASC' | 'DESC'][] = sorter ? [[sorter.field, sorter.order === 'descend' ? 'DESC' : 'ASC']] : this.resource.defaultSort;
    sorts.forEach(([field, order], i) => (i === 0 ? qb.orderBy(`r.${field}`, order) : qb.addOrderBy(`r.${field}`, order)));
    // ties broken by the identifier in the last key's direction: an index (tenant, live, ..., key) ends with the
    // primary key, so it serves the whole order (a backward scan for DESC) with no sort of the matching rows
    return qb.addOrderBy(`r.${this.resource.idField}`, sorts[sorts.length - 1][1]);
  }

  async count(body: Row): Promise<number> {
    return this.filtered(requestScope().tenantId, body).getCount();
  }

  getById(id: string): Promise<E | null> {
    return this.repo().findOne({ where: this.where(requestScope().tenantId, { [this.resource.idField]: id }) });
  }

  async list(body: Row & ListControls): Promise<E[]> {
    const limit = Math.min(body.sqlQueryLimit ?? this.config.listLimitMax, this.config.listLimitMax);
    if (limit === 0) return [];
    return this.ordered(this.filtered(requestScope().tenantId, body), body).limit(limit).getMany();
  }

  async page(body: Row & PageControls): Promise<WithExtra<E[]>> {
    const current = body.current ?? 0;
    const pageSize = body.pageSize ?? 0;
    if (pageSize > this.config.pageSizeMax) throw AppException.validation(`pageSize must not be greater than ${this.config.pageSizeMax}`);
    const qb = this.filtered(requestScope().tenantId, body);
    const rows = pageSize === 0 ? Promise.resolve([]) : this.ordered(qb.clone(), body).offset((Math.max(current, 1) - 1) * pageSize).limit(pageSize).getMany();
    const [total, data] = await Promise.all([qb.getCount(), rows]);
    return new WithExtra(data, { current, pages: pageSize === 0 ? 0 : Math.ceil(total / pageSize), size: pageSize, total });
  }

  async save(dto: object): Promise<true> {
    const scope = requestScope();
    await this.guarded(scope, () => this.insert(this.dataSource.manager, scope, dto as Row));
    return true;
  }

  async updateById(dto: object): Promise<boolean> {
    const scope = requestScope();
    const { [this.resource.idField]: id, revision, ...changes } = dto as Row;
    const where = this.where(scope.tenantId, { [this.resource.idField]: id, ...(revision === undefined ? {} : { revision }) });
    const affected = await this.guarded(scope, () => this.update(this.dataSource.manager, scope, where, changes));
    if (affected > 0) return true;
    if (revision !== undefined && (await this.repo().exists({ where: this.where(scope.tenantId, { [this.resource.idField]: id }) }))) throw this.stale(revision);
    return false;
  }

  /**
   * Sets the changes on every live record of the caller's tenant whose fields equal `match` (e.g. a user's
   * unread rows); server columns are stamped as by updateById. Returns how many records changed.
   */
  async updateMatching(match: Row, changes: Row): Promise<number> {
    const scope = requestScope();
    return this.guarded(scope, () => this.update(this.dataSource.manager, scope, this.where(scope.tenantId, match), changes));
  }

  removeById(id: string): Promise<boolean> {
    return this.removeByIds([id]);
  }

  async removeByIds(ids: string[]): Promise<boolean> {
    const scope = requestScope();
    const now = Date.now();
    const result = await this.guarded(scope, () =>
      this.repo()
        .createQueryBuilder()
        .update()
        .set({ deleteTime: now, lastModifiedTime: now, lastModifiedUsername: scope.username } as never)
        .where(this.where(scope.tenantId, { [this.resource.idField]: In(ids) }))
        .execute(),
    );
    return (result.affected ?? 0) > 0;
  }

  /**
   * saveOrUpdate: with the identifier of a live record of the caller's tenant, updates that record (key
   * fields included; `revision` checked when given). Otherwise (no identifier, another tenant's, a deleted
   * record's) it upserts by the uniqueness key; `revision`, when given, is checked against the record found.
   */
  async saveOrUpdate(dto: object): Promise<true> {
    const scope = requestScope();
    const idField = this.resource.idField;
    if (!this.resource.uniqueKey?.length) throw new Error(`${this.resource.path} has no uniqueness key to upsert by`);
    const { [idField]: id, revision, ...fields } = dto as Row;
    if (id !== undefined && (await this.updateById({ ...fields, [idField]: id, revision }))) return true;
    await this.guarded(scope, () =>
      this.dataSource.transaction(async (manager) => {
        const existing = await this.repo(manager).findOne({ where: this.where(scope.tenantId, this.keyOf(fields)), select: { [idField]: true, revision: true } as never });
        // a new record keeps the client's identifier as save does: the primary key is (tenant, id), so an id
        // of another tenant can neither collide nor reach that tenant's record
        if (!existing) return this.insert(manager, scope, id === undefined ? fields : { ...fields, [idField]: id });
        if (revision !== undefined && existing.revision !== revision) throw this.stale(revision);
        const where = this.where(scope.tenantId, { [idField]: existing[idField], ...(revision === undefined ? {} : { revision }) });
        if ((await this.update(manager, scope, where, fields)) === 0 && revision !== undefined) throw this.stale(revision);
      }),
    );
    return true;
  }

  /** saveBatch: insert every row in one transaction; the first duplicate refuses the whole batch. */
  async saveBatch(rows: object[]): Promise<true> {
    const scope = requestScope();
    const records = await this.columnRows(rows as Row[], new TimeSlice());
    await this.guarded(scope, () => this.writeTransaction((manager) => this.insertRecords(manager, scope, records, Date.now(), this.pauses())));
    return true;
  }

  /** Synchronous importList: upsert by key, all or nothing. */
  async importRows(rows: object[]): Promise<WithExtra<true>> {
    const result = await this.upsertInTransaction(requestScope(), rows as Row[]);
    return new WithExtra(true, { count: rows.length, ...result });
  }

  /** Upsert by key in one transaction. The rows are mapped first, so the transaction holds its locks only while it writes. */
  async upsertInTransaction(scope: Scope, rows: Row[]): Promise<UpsertResult> {
    const prepared = await this.prepareUpsert(rows, new TimeSlice());
    return this.guarded(scope, () => this.writeTransaction((manager) => this.writeUpsert(manager, scope, prepared, this.pauses())));
  }

  /**
   * A transaction whose chunked writes (upsertMany, saveBatch) give the event loop a turn between
   * statements; on SQLite it is exclusive while open (see exclusive-transaction.ts).
   */
  writeTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return exclusiveTransaction(this.dataSource, work);
  }

  /**
   * Upsert by the uniqueness key inside the caller's transaction (imports, consumers). The live ids of
   * the batch's keys come from a few queries (not one per row); new keys go in multi-row INSERTs, existing
   * ones in multi-row upserts by identifier; a key repeated in the batch is inserted once and then updated,
   * as it would be row by row. Pauses between statements only inside writeTransaction (or off SQLite).
   */
  async upsertMany(manager: EntityManager, scope: Scope, rows: Row[]): Promise<UpsertResult> {
    const slice = this.pauses();
    return this.writeUpsert(manager, scope, await this.prepareUpsert(rows, slice), slice);
  }

  /** A time slice where the current transaction may give the event loop a turn, else none. */
  private pauses(): TimeSlice | undefined {
    return mayPauseInTransaction(this.dataSource) ? new TimeSlice() : undefined;
  }

  private stale(revision: unknown): AppException {
    return new AppException(BodyStatus.STALE_REVISION, `${this.resource.title} was changed by someone else: revision ${String(revision)} is stale`);
  }

  /** The business key's fields (the identifier where the resource has none) and their values in a row. */
  private keyOf(row: Row | E): Row {
    const fields: string[] = this.resource.uniqueKey ?? [this.resource.idField];
    return Object.fromEntries(fields.map((k) => [k, (row as Row)[k]]));
  }

  private keyText(row: Row | E): string {
    return JSON.stringify(Object.values(this.keyOf(row)));
  }

  /** Each row's key and column values (the client's identifier, if any, kept apart). */
  private async prepareUpsert(rows: Row[], slice?: TimeSlice): Promise<UpsertRow[]> {
    if (!this.resource.uniqueKey?.length) throw new Error(`${this.resource.path} has no uniqueness key to upsert by`);
    const prepared: UpsertRow[] = [];
    for (const row of rows) {
      const { [this.resource.idField]: id, ...fields } = row;
      prepared.push({ id: id as string | undefined, key: this.keyOf(row), keyText: this.keyText(row), columns: await this.checkedColumns(fields) });
      await slice?.pause();
    }
    return prepared;
  }

  private async writeUpsert(manager: EntityManager, scope: Scope, rows: UpsertRow[], slice?: TimeSlice): Promise<UpsertResult> {
    const idField = this.resource.idField;
    const ids = await this.liveIdsByKey(manager, scope.tenantId, rows, slice);
    const inserts: Row[] = [];
    const updates: Row[] = [];
    for (const row of rows) {
      const existing = ids.get(row.keyText);
      if (existing !== undefined) {
        updates.push({ ...row.columns, [idField]: existing });
      } else {
        const id = row.id ?? newId();
        inserts.push({ ...row.columns, [idField]: id });
        ids.set(row.keyText, id);
      }
      await slice?.pause();
    }
    const now = Date.now();
    // new keys first (a key repeated in the batch is then updated, in batch order)
    await this.insertRecords(manager, scope, inserts, now, slice);
    await this.updateRecords(manager, scope, updates, now, slice);
    return { inserted: inserts.length, updated: updates.length };
  }

  /**
   * Identifier of each live record of the tenant whose uniqueness key occurs in the rows, by key text.
   * Per chunk of keys one query with an IN list per key field (a superset of the keys, served by the
   * unique index); the exact keys are matched here.
   */
  private async liveIdsByKey(manager: EntityManager, tenantId: string, rows: UpsertRow[], slice?: TimeSlice): Promise<Map<string, string>> {
    const idField = this.resource.idField;
    const fields: string[] = this.resource.uniqueKey!;
    const keys = [...new Map(rows.map((row) => [row.keyText, row.key])).entries()];
    const select = Object.fromEntries([idField, ...fields].map((f) => [f, true]));
    const ids = new Map<string, string>();
    for (let i = 0; i < keys.length; i += KEY_LOOKUP_CHUNK) {
      const chunk = keys.slice(i, i + KEY_LOOKUP_CHUNK);
      const wanted = new Set(chunk.map(([text]) => text));
      const where = this.where(tenantId, Object.fromEntries(fields.map((f) => [f, In([...new Set(chunk.map(([, key]) => key[f]))])])));
      for (const found of await this.repo(manager).find({ where, select: select as never })) {
        const text = this.keyText(found);
        if (wanted.has(text)) ids.set(text, found[idField] as unknown as string);
      }
      await slice?.pause();
    }
    return ids;
  }

  /** listCache: the tenant's live records merged with the default tenant's; the tenant wins per key. */
  async listCache(body: Row): Promise<E[]> {
    const { tenantId } = requestScope();
    const merged = await this.cache.getOrLoad(this.resource.path, tenantId, this.config.listCacheTtlMs, () => this.loadMerged(tenantId));
    const filters = this.resource.filters.filter((f) => body[f] !== undefined && body[f] !== null);
    const range = this.timeRange(body);
    const inRange = (r: E) => {
      if (!range) return true;
      const time = r[range.field as keyof E] as unknown as number;
      return (range.start === undefined || time >= range.start) && (range.end === undefined || time <= range.end);
    };
    return merged.filter((r) => filters.every((f) => r[f] === body[f]) && inRange(r));
  }

  /** Live records of an explicitly named tenant, for system readers (caches, translators), not requests. */
  findAll(tenantId: string, filters: Row = {}): Promise<E[]> {
    return this.ordered(this.filtered(tenantId, filters), {}).limit(this.config.listLimitMax).getMany();
  }

  /** Inserts the rows whose uniqueness key is not live yet; never overwrites. Returns how many were new. */
  async insertMissing(scope: Scope, rows: Row[]): Promise<number> {
    let inserted = 0;
    for (const row of rows) {
      if (await this.repo().exists({ where: this.where(scope.tenantId, this.keyOf(row)) })) continue;
      try {
        await this.insert(this.dataSource.manager, scope, row);
        inserted++;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error; // a concurrent report of the same key won
      }
    }
    if (inserted) this.invalidate(scope.tenantId);
    return inserted;
  }

  private async loadMerged(tenantId: string): Promise<E[]> {
    const load = (t: string) => this.findAll(t);
    const defaultTenant = this.config.defaultTenantId;
    const [own, fallback] = await Promise.all([load(tenantId), tenantId === defaultTenant ? Promise.resolve([]) : load(defaultTenant)]);
    const keyText = (r: E) => JSON.stringify(Object.values(this.keyOf(r)));
    const ownKeys = new Set(own.map(keyText));
    const merged = [...own, ...fallback.filter((r) => !ownKeys.has(keyText(r)))];
    return merged.sort((a, b) => this.compareDefault(a, b));
  }

  private compareDefault(a: E, b: E): number {
    for (const [field, order] of this.resource.defaultSort) {
      const x = a[field] as unknown as number | string;
      const y = b[field] as unknown as number | string;
      if (x !== y) return (x < y ? -1 : 1) * (order === 'ASC' ? 1 : -1);
    }
    return 0;
  }

  private async insert(manager: EntityManager, scope: Scope, dto: Row): Promise<void> {
    await this.insertRecords(manager, scope, [await this.checkedColumns(dto)], Date.now());
  }

  /** The column values of each row, checked (client identifiers kept). */
  private async columnRows(rows: Row[], slice?: TimeSlice): Promise<Row[]> {
    const mapped: Row[] = [];
    for (const row of rows) {
      mapped.push(await this.checkedColumns(row));
      await slice?.pause();
    }
    return mapped;
  }

  /** A new record: the row's columns and the server-owned ones. */
  private stamped(scope: Scope, columns: Row, now: number): Row {
    return {
      ...columns,
      [this.resource.idField]: columns[this.resource.idField] ?? newId(),
      tenantId: scope.tenantId,
      revision: 1,
      createdUsername: scope.username,
      createdTime: now,
      lastModifiedUsername: scope.username,
      lastModifiedTime: now,
      deleteTime: LIVE,
    };
  }

  /** New records in multi-row INSERTs of up to WRITE_CHUNK rows. */
  private async insertRecords(manager: EntityManager, scope: Scope, rows: Row[], now: number, slice?: TimeSlice): Promise<void> {
    // the identifier is given or generated for each row: it does not split runs
    for (const run of runsOfSameFields(rows, WRITE_CHUNK, this.resource.idField)) {
      await manager.query(...multiRowInsert(manager, this.resource.entity, run.map((row) => this.stamped(scope, row, now))));
      await slice?.pause();
    }
  }

  /**
   * Updates of live records by identifier, in multi-row upserts of up to WRITE_CHUNK rows. One statement
   * sets the same columns on each of its rows (an omitted field keeps its value), so only consecutive rows
   * that give the same fields share one; runs stay in batch order, so the last of repeated rows wins.
   */
  private async updateRecords(manager: EntityManager, scope: Scope, rows: Row[], now: number, slice?: TimeSlice): Promise<void> {
    for (const run of runsOfSameFields(rows, WRITE_CHUNK)) {
      const fields = Object.keys(run[0]).filter((f) => f !== this.resource.idField);
      const records = run.map((row) => this.stamped(scope, row, now));
      await manager.query(...multiRowUpdateById(manager, this.resource.entity, this.resource.idField, records, fields));
      await slice?.pause();
    }
  }

  private async update(manager: EntityManager, scope: Scope, where: FindOptionsWhere<E>, changes: Row): Promise<number> {
    const set = await this.checkedColumns(changes);
    const result = await manager
      .createQueryBuilder()
      .update(this.resource.entity)
      .set({ ...set, revision: () => 'revision + 1', lastModifiedUsername: scope.username, lastModifiedTime: Date.now() } as never)
      .where(where)
      .execute();
    return result.affected ?? 0;
  }

  /** The column values of a write body; null for a NOT NULL column is a validation error, not a failing statement. */
  private async checkedColumns(body: Row): Promise<Row> {
    const set = await this.columns(body);
    const metadata = this.dataSource.getMetadata(this.resource.entity);
    for (const [field, value] of Object.entries(set)) {
      if (value === null && metadata.findColumnWithPropertyName(field)?.isNullable === false) throw AppException.validation(`${field} must not be null`);
    }
    return set;
  }

  /** The column values of a write body: omitted fields dropped, then the resource's own mapping. */
  private async columns(body: Row): Promise<Row> {
    const defined = this.defined(body);
    return this.resource.toColumns ? this.defined(await this.resource.toColumns(defined)) : defined;
  }

  /** Drops undefined properties: an omitted field leaves the column as it is. */
  private defined(row: Row): Row {
    return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== undefined));
  }

  /** Runs a write: a unique-index violation becomes the resource's 422; caches of the tenant are dropped. */
  private async guarded<T>(scope: Scope, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new AppException(BodyStatus.DUPLICATE, this.resource.duplicateMessage);
      throw error;
    } finally {
      this.invalidate(scope.tenantId);
    }
  }

  /** A write in the default tenant changes every tenant's merged list. */
  invalidate(tenantId: string): void {
    if (!this.resource.listCache) return;
    this.cache.invalidate(this.resource.path, tenantId === this.config.defaultTenantId ? undefined : tenantId);
  }
}
