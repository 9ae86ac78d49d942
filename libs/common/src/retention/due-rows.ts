import { DataSource, EntityTarget, FindOptionsWhere, In, SelectQueryBuilder } from 'typeorm';
import { TenantFilter, TenantTable } from '../crud/tables/tenant-table';
import { BaseRecord } from '../persistence/base-record';
import { AllTenantsRead, TenantScope } from '../tenancy/tenant-scope';

type Row = BaseRecord & Record<string, unknown>;

/**
 * The rows of one table that a retention rule removes at one moment (`due`, e.g. deleted before a cutoff),
 * reached like every tenant's rows: through a TenantTable, whose statements then carry the tenant and
 * the due condition.
 */
export class DueRows extends TenantTable<Row> {
  constructor(
    entity: EntityTarget<Row>,
    readonly idField: string,
    dataSource: DataSource,
    private readonly due: FindOptionsWhere<Row>,
    /** The field the due rows are read in order of: the one the due range is on, after (tenant, delete_time) in an index. */
    private readonly oldestFirst: string,
    /** Whether the rows are live records (removing them changes what the resource's operations see). */
    readonly live: boolean,
  ) {
    super(entity, dataSource);
  }

  protected override servedRows(): FindOptionsWhere<Row> {
    return this.due;
  }

  /**
   * At most `limit` due rows of the scope's tenant, oldest first: in the order of the index that holds the
   * range, so the read stops after `limit` entries however many rows are due (unordered, MariaDB may pick
   * the primary key and filter every row of the tenant).
   */
  dueQuery(scope: TenantScope, limit: number): SelectQueryBuilder<Row> {
    return this.select(scope, {}, 'r').select(`r.${this.idField}`, 'id').orderBy(`r.${this.oldestFirst}`, 'ASC').limit(limit);
  }

  /** Identifiers of at most `limit` due rows of the scope's tenant. */
  async someIds(scope: TenantScope, limit: number): Promise<string[]> {
    const rows = await this.dueQuery(scope, limit).getRawMany<{ id: unknown }>();
    return rows.map((row) => String(row.id));
  }

  /** Of the given rows of the scope's tenant, those still due (the condition is checked again). */
  matching(ids: string[]): TenantFilter<Row> {
    return { [this.idField]: In(ids) } as TenantFilter<Row>;
  }
}

/**
 * The tenants owning rows of a table, one at a time in key order: each is one seek on the primary key
 * (tenant_id, id), however many rows the tenants have.
 */
export class TableTenants {
  private readonly table: TenantTable<Row>;
  private readonly read = AllTenantsRead.of('retention: the tenants owning rows of a table');

  constructor(entity: EntityTarget<Row>, dataSource: DataSource) {
    this.table = new TenantTable(entity, dataSource);
  }

  /** The first tenant after `after` (from the start when undefined), or undefined past the last. */
  async after(after: string | undefined): Promise<string | undefined> {
    const query = this.table.selectInAnyTenant(this.read).select('r.tenantId', 'tenantId').orderBy('r.tenantId', 'ASC').limit(1);
    if (after !== undefined) query.andWhere('r.tenantId > :after', { after });
    const row = await query.getRawOne<{ tenantId: string }>();
    return row?.tenantId;
  }
}
