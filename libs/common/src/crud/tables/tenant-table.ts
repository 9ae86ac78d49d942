import {
  DataSource,
  EntityManager,
  EntityTarget,
  FindOptionsSelect,
  FindOptionsWhere,
  ObjectLiteral,
  Repository,
  SelectQueryBuilder,
} from 'typeorm';
import { AllTenantsRead, TenantScope } from '../../tenancy/tenant-scope';
import { PreparedFinds } from '../../persistence/sql/prepared-finds';
import { FindShape } from './find-shape';
import { PreparedUpdates } from '../../persistence/sql/prepared-updates';
import { changeRows } from '../../persistence/sql/run-statement';
import { TimeSlice } from '../../background/time-slice';
import { writeStamp } from '../../history/write-stamp';
import { multiRowInsert, runsOfSameFields, WRITE_CHUNK } from '../../persistence/sql/multi-row-sql';

/** A row of a table whose primary key starts with the owning tenant. */
export interface TenantOwned extends ObjectLiteral {
  tenantId: string;
}

/** Conditions on a tenant's rows: the tenant (and the live sentinel) come from the scope, never from the caller. */
export type TenantFilter<E> = Omit<FindOptionsWhere<E>, 'tenantId' | 'deleteTime'>;

export interface ReadOptions<E> extends FindShape<E> {
  /** The transaction to read in; the data source's manager otherwise. */
  manager?: EntityManager;
}

/**
 * The way to a tenant-owned table: every method takes a TenantScope, and every statement's WHERE
 * carries that scope's tenant (LiveRecordTable adds the live sentinel), so another tenant's rows
 * behave as absent.
 */
export class TenantTable<E extends TenantOwned> {
  /** Made on first use (the entity's metadata exists only once the data source is initialised). */
  private statements?: { finds: PreparedFinds<E>; updates: PreparedUpdates<E> };

  constructor(
    readonly entity: EntityTarget<E>,
    protected readonly dataSource: DataSource,
  ) {}

  protected repository(manager: EntityManager = this.dataSource.manager): Repository<E> {
    return manager.getRepository(this.entity);
  }

  /** What every row this table serves meets, whatever the tenant (LiveRecordTable: live). */
  protected servedRows(): FindOptionsWhere<E> {
    return {};
  }

  /** The scope's condition and the caller's. */
  protected where(scope: TenantScope, filter: TenantFilter<E> = {} as TenantFilter<E>): FindOptionsWhere<E> {
    return { ...filter, tenantId: scope.tenantId, ...this.servedRows() } as FindOptionsWhere<E>;
  }

  /** The caller's condition on the rows of every tenant (see AllTenantsRead). */
  private whereInAnyTenant(read: AllTenantsRead, filter: TenantFilter<E>): FindOptionsWhere<E> {
    void read.purpose; // the value is the permission: it names why this read crosses tenants
    return { ...filter, ...this.servedRows() } as FindOptionsWhere<E>;
  }

  find(scope: TenantScope, filter: TenantFilter<E> = {} as TenantFilter<E>, options: ReadOptions<E> = {}): Promise<E[]> {
    return this.findWhere(this.where(scope, filter), options);
  }

  async findOne(scope: TenantScope, filter: TenantFilter<E>, options: ReadOptions<E> = {}): Promise<E | null> {
    return (await this.findWhere(this.where(scope, filter), { ...options, take: 1 }))[0] ?? null;
  }

  /** How many of the scope's rows match `filter`. */
  count(
    scope: TenantScope,
    filter: TenantFilter<E> = {} as TenantFilter<E>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<number> {
    return this.prepared().finds.count(manager, this.where(scope, filter));
  }

  /** Rows matching a complete condition: by a statement built once for its shape where it can be (PreparedFinds). */
  private findWhere(where: FindOptionsWhere<E>, { manager = this.dataSource.manager, ...shape }: ReadOptions<E>): Promise<E[]> {
    return this.prepared().finds.find(manager, where, shape);
  }

  /** The table's finds and updates, their statements built once per shape (persistence/sql/). */
  protected prepared(): { finds: PreparedFinds<E>; updates: PreparedUpdates<E> } {
    if (this.statements === undefined) {
      const metadata = this.dataSource.getMetadata(this.entity);
      this.statements = { finds: new PreparedFinds(metadata), updates: new PreparedUpdates(metadata) };
    }
    return this.statements;
  }

  /** Whether a row matches: a find of one row's tenant column, so that it is prepared like the other finds. */
  async exists(scope: TenantScope, filter: TenantFilter<E>, manager?: EntityManager): Promise<boolean> {
    const select = { tenantId: true } as FindOptionsSelect<E>;
    return (await this.findWhere(this.where(scope, filter), { manager, select, take: 1 })).length > 0;
  }

  /** A query over the scope's rows matching `filter`, aliased `alias`, for conditions a filter cannot express. */
  select(scope: TenantScope, filter: TenantFilter<E> = {} as TenantFilter<E>, alias = 'r', manager?: EntityManager): SelectQueryBuilder<E> {
    return this.repository(manager).createQueryBuilder(alias).where(this.where(scope, filter));
  }

  /** A row found by a condition that is deliberately not confined to one tenant (see AllTenantsRead). */
  async findOneInAnyTenant(read: AllTenantsRead, filter: TenantFilter<E>, options: ReadOptions<E> = {}): Promise<E | null> {
    return (await this.findWhere(this.whereInAnyTenant(read, filter), { ...options, take: 1 }))[0] ?? null;
  }

  /** A query over the rows of every tenant matching `filter`, aliased `alias` (a scan or count that crosses tenants on purpose). */
  selectInAnyTenant(
    read: AllTenantsRead,
    filter: TenantFilter<E> = {} as TenantFilter<E>,
    alias = 'r',
    manager?: EntityManager,
  ): SelectQueryBuilder<E> {
    return this.repository(manager).createQueryBuilder(alias).where(this.whereInAnyTenant(read, filter));
  }

  /** Rows of the scope's tenant, as given (no other column stamped). */
  async insertRows(scope: TenantScope, rows: Omit<E, 'tenantId'>[], manager: EntityManager = this.dataSource.manager): Promise<void> {
    await this.insertInRuns(manager, rows, (row) => ({ ...row, tenantId: scope.tenantId }));
  }

  /**
   * Rows, each made complete by `complete` as its statement is built, in multi-row INSERTs of consecutive rows
   * that give the same fields (`besides` not counted); a single row's INSERT, whose text repeats, runs as a
   * repeated text (persistence/sql/run-statement.ts: prepared on the MySQL pool).
   */
  protected async insertInRuns<R extends object>(
    manager: EntityManager,
    rows: R[],
    complete: (row: R) => Record<string, unknown>,
    { slice, besides }: { slice?: TimeSlice; besides?: string } = {},
  ): Promise<void> {
    for (const run of runsOfSameFields(rows, WRITE_CHUNK, besides)) {
      const [sql, parameters] = multiRowInsert(manager, this.entity, run.map(complete));
      await changeRows(manager, sql, parameters, run.length === 1 ? 'repeated' : 'once');
      await slice?.pause();
    }
  }

  /** Sets exactly `set` on the scope's rows matching `filter`; returns how many matched. */
  async updateColumns(
    scope: TenantScope,
    filter: TenantFilter<E>,
    set: Partial<E>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<number> {
    return this.prepared().updates.update(manager, this.where(scope, filter), set);
  }

  /**
   * Rows of the scope's tenant, as given, except those whose primary or unique key is taken already
   * (INSERT IGNORE / INSERT OR IGNORE, one statement): the way to write a row only the first of several
   * racing writers may create. MySQL's IGNORE also lets other faults of a row pass as warnings: give valid rows.
   */
  async insertRowsIfAbsent(
    scope: TenantScope,
    rows: Omit<E, 'tenantId'>[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    if (!rows.length) return;
    const [sql, parameters] = manager
      .createQueryBuilder()
      .insert()
      .into(this.entity)
      .values(rows.map((row) => ({ ...row, tenantId: scope.tenantId })) as never)
      .orIgnore()
      .getQueryAndParameters();
    await changeRows(manager, sql, parameters, 'once');
  }

  /**
   * Removes the scope's record rows matching `filter` for good, in `manager`'s transaction: first stamped with who
   * removes them (writeStamp: the stamp alone writes no history entry), so the PURGE entry their delete trigger writes
   * names the remover. Returns how many went.
   */
  async removeStamped(scope: TenantScope, filter: TenantFilter<E>, manager: EntityManager): Promise<number> {
    await this.updateColumns(scope, filter, writeStamp(scope) as never, manager);
    return this.deleteRows(scope, filter, manager);
  }

  /** Removes the scope's rows matching `filter` from the table; returns how many. */
  async deleteRows(scope: TenantScope, filter: TenantFilter<E>, manager: EntityManager = this.dataSource.manager): Promise<number> {
    const [sql, parameters] = manager
      .createQueryBuilder()
      .delete()
      .from(this.entity)
      .where(this.where(scope, filter))
      .getQueryAndParameters();
    return changeRows(manager, sql, parameters, 'once');
  }
}
