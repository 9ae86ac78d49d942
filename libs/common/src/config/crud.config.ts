import { Type } from 'class-transformer';
import { IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { Env } from './environment';

/** Bounds of the standard operations (page, list), and the listCache and page totals every CrudService keeps. */
export class CrudConfig {
  static readonly namespace = 'crud';

  /** Largest `pageSize` (above it: status 400). */
  @Env('PAGE_SIZE_MAX') @Type(() => Number) @IsInt() @Min(1) pageSizeMax = 1000;
  /** Most rows of a list or listCache call. */
  @Env('LIST_LIMIT_MAX') @Type(() => Number) @IsInt() @Min(1) listLimitMax = 10000;
  @Env('LIST_CACHE_TTL_SECONDS') @Type(() => Number) @IsInt() @Min(0) listCacheTtlSeconds = 60;
  /** Lists listCache keeps per process (one per resource and tenant; the least recently used is dropped beyond). */
  @Env('LIST_CACHE_MAX_ENTRIES') @Type(() => Number) @IsInt() @Min(1) @Max(1_000_000) listCacheMaxEntries = 10_000;
  /** Rows those lists hold together (least recently used lists dropped beyond; a longer list is not kept). */
  @Env('LIST_CACHE_MAX_ROWS') @Type(() => Number) @IsInt() @Min(1) @Max(10_000_000) listCacheMaxRows = 100_000;
  /** How long a replica may answer page's `total` from a count it made at the current write version (0: count every page). */
  @Env('PAGE_TOTAL_TTL_MS') @Type(() => Number) @IsInt() @Min(0) pageTotalTtlMs = 2000;
  /** Most rows of one export (more: status 400 before any byte of the file). */
  @Env('EXPORT_MAX_ROWS') @Type(() => Number) @IsInt() @Min(1) @Max(10_000_000) exportMaxRows = 1_000_000;
  /** Exports a replica streams at once (beyond: HTTP 429 + Retry-After); each holds a pool connection while it runs. */
  @Env('EXPORT_CONCURRENCY') @Type(() => Number) @IsInt() @Min(1) @Max(64) exportConcurrency = 2;
  /** Longest an export may run, a slow reader's waits included (past it the file is cut): its slot, read view and connection are bounded. */
  @Env('EXPORT_MAX_SECONDS') @Type(() => Number) @IsInt() @Min(1) @Max(86_400) exportMaxSeconds = 600;
  /** The tenant whose records listCache merges into every tenant's. */
  @Env('DEFAULT_TENANT_ID') @IsString() @Matches(/^[A-Za-z0-9_-]{1,64}$/) defaultTenantId = 'default';

  get listCacheTtlMs(): number {
    return this.listCacheTtlSeconds * 1000;
  }
}
