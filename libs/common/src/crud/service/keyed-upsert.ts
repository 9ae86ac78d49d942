import { EntityManager, In } from 'typeorm';
import { BaseRecord } from '../../persistence/base-record';
import { newId } from '../../persistence/ids';
import { TenantScope } from '../../tenancy/tenant-scope';
import { LiveRecordTable } from '../tables/live-record-table';
import { RecordColumns } from '../tables/record-columns';
import { Resource } from '../fields/resource';
import { TenantFilter } from '../tables/tenant-table';
import { TimeSlice } from '../../background/time-slice';

type Row = Record<string, unknown>;

export interface UpsertResult {
  inserted: number;
  updated: number;
}

/** The steps an upsertClaimed transaction runs around its rows. */
export interface UpsertClaim {
  /** First, in the transaction: false leaves the rows unwritten (e.g. the batch was applied already). */
  claim(manager: EntityManager): Promise<boolean>;
  /** Last, in the same transaction, with what the upsert did. */
  finish(manager: EntityManager, result: UpsertResult): Promise<void>;
}

/** A row of an upsert: its uniqueness key and column values, the client's identifier apart. */
export interface UpsertRow {
  id?: string;
  key: Row;
  keyText: string;
  columns: Row;
}

/** Keys looked up per query by an upsert. */
const KEY_LOOKUP_CHUNK = 500;

/**
 * Upserts by business key (importList and the import consumer): rows are mapped before the transaction
 * (prepare), so it holds its locks only while it writes (write).
 */
export class KeyedUpsert<E extends BaseRecord> {
  constructor(
    private readonly resource: Resource<E>,
    private readonly table: LiveRecordTable<E>,
    private readonly columns: RecordColumns<E>,
  ) {}

  /** Each row's key and column values (the client's identifier, if any, kept apart). */
  async prepare(rows: Row[], slice?: TimeSlice): Promise<UpsertRow[]> {
    this.columns.requireUniqueKey();
    const prepared: UpsertRow[] = [];
    for (const row of rows) {
      const { [this.resource.idField]: id, ...fields } = row;
      prepared.push({
        id: id as string | undefined,
        key: this.columns.keyOf(row),
        keyText: this.columns.keyText(row),
        columns: await this.columns.of(fields),
      });
      await slice?.pause();
    }
    return prepared;
  }

  /**
   * New keys in multi-row INSERTs, existing ones in multi-row upserts by identifier; a key repeated in the
   * batch is inserted once and then updated, as it would be row by row.
   */
  async write(manager: EntityManager, scope: TenantScope, rows: UpsertRow[], slice?: TimeSlice): Promise<UpsertResult> {
    const idField = this.resource.idField;
    const ids = await this.liveIdsByKey(manager, scope, rows, slice);
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
    await this.table.insertRecords(scope, inserts, { manager, now, slice });
    await this.table.updateRecordsById(scope, updates, { manager, now, slice });
    return { inserted: inserts.length, updated: updates.length };
  }

  /**
   * The live id of each key in the rows, by key text: per chunk of keys one query with an IN list per key
   * field (a superset, served by the unique index), matched exactly here.
   */
  private async liveIdsByKey(
    manager: EntityManager,
    scope: TenantScope,
    rows: UpsertRow[],
    slice?: TimeSlice,
  ): Promise<Map<string, string>> {
    const idField = this.resource.idField;
    const fields: string[] = this.columns.requireUniqueKey();
    const keys = [...new Map(rows.map((row) => [row.keyText, row.key])).entries()];
    const select = Object.fromEntries([idField, ...fields].map((f) => [f, true]));
    const ids = new Map<string, string>();
    for (let i = 0; i < keys.length; i += KEY_LOOKUP_CHUNK) {
      const chunk = keys.slice(i, i + KEY_LOOKUP_CHUNK);
      const wanted = new Set(chunk.map(([text]) => text));
      const filter = Object.fromEntries(fields.map((f) => [f, In([...new Set(chunk.map(([, key]) => key[f]))])])) as TenantFilter<E>;
      for (const found of await this.table.find(scope, filter, { select: select as never, manager })) {
        const text = this.columns.keyText(found);
        if (wanted.has(text)) ids.set(text, found[idField] as unknown as string);
      }
      await slice?.pause();
    }
    return ids;
  }
}
