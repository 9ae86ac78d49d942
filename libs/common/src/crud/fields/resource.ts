import { Type } from '@nestjs/common';
import { ApiProperty, IntersectionType, OmitType, PartialType, PickType } from '@nestjs/swagger';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, Min } from 'class-validator';
import { DataSource } from 'typeorm';
import { BaseRecord } from '../../persistence/base-record';
import { TenantScope } from '../../tenancy/tenant-scope';
import { Action } from '../../auth/access';
import { markCompiledRules } from '../../http/compiled-validation';
import { changeDtoOf, saveDtoOf, writeOnlyColumnsOf } from './field-dto';
import { Revision } from './field-rules';
import { declareResourceIndexes } from './resource-indexes';
import { declareFilterCounts } from '../tables/filter-counts';
import { EXAMPLE_ID } from './fields';
import { ImportListOption } from './import-list';
import { CONTROL_NESTED_TYPES, ListControls, PageControls } from '../http/query-controls';

export type SortOrder = 'ASC' | 'DESC';

/** What one standard resource declares; everything else (routes, DTO variants, service) is derived. */
export interface ResourceOptions<E extends BaseRecord> {
  /** Path under the app prefix, e.g. `system-api/inventory/item`. */
  path: string;
  /** OpenAPI tag. */
  tag: string;
  /** Permission name without the action, e.g. `inventory-item`. */
  permission: string;
  /** Human name used in summaries and the duplicate text, e.g. `Inventory item`. */
  title: string;
  entity: Type<E>;
  idField: keyof E & string;
  /**
   * Body of save: the client-writable fields, including the optional identifier. Derived from the
   * entity's field declarations (saveDtoOf) unless given.
   */
  saveDto?: Type<object>;
  /** Exact-match filters: fields of saveDto. */
  filters: (keyof E & string)[];
  /** Fields a client may sort by (base time fields are always sortable). */
  sortable: (keyof E & string)[];
  defaultSort: [keyof E & string, SortOrder][];
  /**
   * Business key unique per tenant among live records: its unique index is derived from it (resource-indexes.ts);
   * its fields are declared `key: true`.
   */
  uniqueKey?: (keyof E & string)[];
  /** The business key is unique across all tenants (its unique index leaves the tenant out). */
  uniqueAcrossTenants?: boolean;
  /** Adds `importList` (upsert by uniqueKey): see ImportListOption. */
  importList?: ImportListOption;
  /** `listCache`: the tenant's records merged with the default tenant's, cached with a TTL. */
  listCache?: boolean;
  /**
   * deletedPage, restoreById and purgeByIds over the logically deleted records (default: true). Off where reviving
   * a record would revive what its deletion revoked (a device's credentials).
   */
  recycleBin?: boolean;
  /**
   * `export`: the page's records as a file (CSV, NDJSON, XLSX); default: with the recycle bin (the operations every
   * resource of main-service has, docs/contract.md "Export").
   */
  export?: boolean;
  /** The columns of the XLSX export, when it is the resource's own import format (the translations' workbook); default: every field. */
  exportSheet?: (keyof E & string)[];
  /**
   * historyPage over the entries its table's triggers write on every change (default: true). Off where a record's
   * history is not kept (device-service's registry).
   */
  history?: boolean;
  /** The main time field (epoch ms): count/list/page/listCache also take `<field>Start`/`<field>End`, both inclusive. */
  timeRange?: keyof E & string;
  /**
   * Columns never returned (secrets): `select: false` without a record property; checked at start-up.
   * Derived from the entity's secret field declarations unless given.
   */
  writeOnly?: (keyof E & string)[];
  /** Maps a validated write body to column values just before it is stored (e.g. a secret to its salted hash). */
  toColumns?: (row: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /**
   * Checks a write against other records before it is stored; throws AppException.validation to refuse it.
   * `record`: the save body, or on updateById the stored record with the changes applied. Applied by save
   * and updateById (not by importList: defineResource refuses both on one resource).
   */
  checkWrite?: (scope: TenantScope, record: Record<string, unknown>, dataSource: DataSource) => Promise<void>;
}

export interface Resource<E extends BaseRecord = BaseRecord> extends ResourceOptions<E> {
  saveDto: Type<object>;
  recycleBin: boolean;
  export: boolean;
  history: boolean;
  writeOnly: (keyof E & string)[];
  /** Name used for schemas and DI tokens, e.g. `InventoryItem`. */
  schemaName: string;
  updateDto: Type<object>;
  filterDto: Type<object>;
  listDto: Type<object>;
  pageDto: Type<object>;
  duplicateMessage: string;
  /** DI token of the resource's CrudService (a symbol: unique per resource, never a string to collide). */
  serviceToken: symbol;
  permissionFor(action: Action): string;
}

const BASE_SORTABLE = ['createdTime', 'lastModifiedTime'] as const;

function named<T extends Type<object>>(cls: T, name: string): T {
  Object.defineProperty(cls, 'name', { value: name });
  return cls;
}

/** updateById needs the identifier and may carry `revision` for optimistic locking. */
function identityDto(idField: string): Type<object> {
  class Identity {}
  ApiProperty({ type: String, required: true, example: EXAMPLE_ID })(Identity.prototype, idField);
  IsString()(Identity.prototype, idField);
  IsNotEmpty()(Identity.prototype, idField);
  Revision('When given, must equal the stored revision (else status 409)')(Identity.prototype, 'revision');
  return Identity;
}

/** `<field>Start` / `<field>End`: optional inclusive bounds on the resource's main time field. */
function timeRangeDto(field: string): Type<object> {
  class TimeRange {}
  const bounds = [
    ['Start', 'at or after', 1767225600000],
    ['End', 'at or before', 1798761599999],
  ] as const;
  for (const [suffix, relation, example] of bounds) {
    const property = `${field}${suffix}`;
    ApiProperty({
      type: 'integer',
      format: 'int64',
      required: false,
      minimum: 0,
      example,
      description: `Only records whose ${field} is ${relation} this time (epoch milliseconds)`,
    })(TimeRange.prototype, property);
    IsOptional()(TimeRange.prototype, property);
    IsInt()(TimeRange.prototype, property);
    Min(0)(TimeRange.prototype, property);
    Max(Number.MAX_SAFE_INTEGER)(TimeRange.prototype, property);
  }
  return TimeRange;
}

export function defineResource<E extends BaseRecord>(o: ResourceOptions<E>): Resource<E> {
  // a query has one condition per field: the time field is compared by its range, never also by equality
  if (o.timeRange && (o.filters as string[]).includes(o.timeRange))
    throw new Error(`${o.path}: the time-range field ${o.timeRange} cannot also be an exact filter`);
  if (o.checkWrite && o.importList) throw new Error(`${o.path}: checkWrite is not applied to importList, so it cannot have both`);
  const schemaName = o.entity.name;
  const saveDto = o.saveDto ?? saveDtoOf(o.entity);
  // update and filter bodies carry no create defaults (changeDtoOf)
  const changeDto = o.saveDto ?? changeDtoOf(o.entity);
  const writable = OmitType(changeDto, [o.idField] as never[]);
  const exact = PartialType(PickType(changeDto, o.filters as never[]));
  const filterDto = named(o.timeRange ? IntersectionType(exact, timeRangeDto(o.timeRange)) : exact, `${schemaName}Filter`);
  const updateDto = named(IntersectionType(identityDto(o.idField), PartialType(writable)), `${schemaName}Update`);
  const listDto = named(IntersectionType(filterDto, ListControls), `${schemaName}ListRequest`);
  const pageDto = named(IntersectionType(filterDto, PageControls), `${schemaName}PageRequest`);
  // made here from the field declarations' classes with class-validator rules alone, and the controls' declared nested
  // sorter (a resource's own saveDto is not vouched for)
  if (!o.saveDto) {
    for (const dto of [filterDto, updateDto]) markCompiledRules(dto);
    for (const dto of [listDto, pageDto]) markCompiledRules(dto, CONTROL_NESTED_TYPES);
  }
  const resource: Resource<E> = {
    ...o,
    saveDto,
    recycleBin: o.recycleBin ?? true,
    export: o.export ?? o.recycleBin ?? true,
    history: o.history ?? true,
    writeOnly: o.writeOnly ?? writeOnlyColumnsOf(o.entity),
    sortable: [...new Set([...o.sortable, ...BASE_SORTABLE])] as (keyof E & string)[],
    schemaName,
    updateDto,
    filterDto,
    listDto,
    pageDto,
    duplicateMessage: `${o.title} exists`,
    serviceToken: Symbol(`CrudService ${o.path}`),
    permissionFor: (action) => `${o.permission}:${action}`,
  };
  // every accepted filter and sort gets its index from this declaration
  declareResourceIndexes(resource);
  declareFilterCounts(resource);
  return resource;
}

/** A resource of any record type, for registries that hold many (the record type is erased there). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyResource = Resource<any>;
