import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PageNumber, PageSizeNumber } from '../crud/http/query-controls';
import { markCompiledRules } from '../http/compiled-validation';
import { ANY_VALUE } from '../openapi/any-value';

export const HISTORY_ACTIONS = ['CREATE', 'UPDATE', 'DELETE', 'RESTORE', 'PURGE'] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

/** historyPage's body: filters on the entries, then the page (as page's `current` and `pageSize`). */
export class HistoryPageRequest {
  @ApiPropertyOptional({ example: 'V1StGXR8Z5jdHi6BmyT12', description: "Only this record's entries" })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  recordId?: string;

  @ApiPropertyOptional({ example: 'alice', description: 'Only entries of this writer (a token `sub`, `import` or `system`)' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  username?: string;

  @ApiPropertyOptional({ enum: HISTORY_ACTIONS, example: 'UPDATE' })
  @IsOptional()
  @IsIn(HISTORY_ACTIONS)
  action?: HistoryAction;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int64',
    minimum: 0,
    example: 1767225600000,
    description: 'Entries at or after this time',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  timeStart?: number;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int64',
    minimum: 0,
    example: 1798761599999,
    description: 'Entries at or before this time',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  timeEnd?: number;

  @PageNumber()
  current?: number;

  @PageSizeNumber()
  pageSize?: number;
}

/** The tenant-wide view's body: historyPage's, and the resource (its permission name) the entries are of. */
export class TenantHistoryPageRequest extends HistoryPageRequest {
  @ApiPropertyOptional({ example: 'configuration-data-dictionary', description: "Only this resource's entries (its permission name)" })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  resource?: string;
}

markCompiledRules(HistoryPageRequest);

/** One changed field: its values, or `masked` for a secret (never a value), or neither once the record was purged. */
export class HistoryChange {
  @ApiProperty({ example: 'remark' })
  field: string;

  @ApiPropertyOptional({ example: 'old text', description: 'Any JSON value, as reads show it; absent when masked or purged', ...ANY_VALUE })
  oldValue?: unknown;

  @ApiPropertyOptional({ example: 'new text', description: 'Any JSON value, as reads show it; absent when masked or purged', ...ANY_VALUE })
  newValue?: unknown;

  @ApiPropertyOptional({ example: true, description: 'A secret field: it changed, its values are never shown' })
  masked?: true;
}

/** One change of one record. */
export class HistoryEntry {
  @ApiProperty({ example: '1042', description: 'Grows with every entry (a decimal string)' })
  historyId: string;

  @ApiPropertyOptional({ example: 'configuration-data-dictionary', description: 'The resource (tenant-wide view only)' })
  resource?: string;

  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyT12' })
  recordId: string;

  @ApiProperty({ type: 'integer', format: 'int64', example: 2, description: "The record's revision after the change" })
  revision: number;

  @ApiProperty({ enum: HISTORY_ACTIONS, example: 'UPDATE' })
  action: HistoryAction;

  @ApiProperty({ example: 'alice', description: 'The token `sub`, `import` (asynchronous import) or `system` (background work)' })
  username: string;

  @ApiProperty({ type: 'integer', format: 'int64', example: 1763800000000, description: 'Epoch milliseconds' })
  time: number;

  @ApiProperty({ type: String, nullable: true, example: 'req-7f3a', description: 'The request id of the write (null outside a request)' })
  requestId: string | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'The trace id of the write (null without tracing)' })
  traceId: string | null;

  @ApiProperty({ example: true, description: 'The record was purged since: its values are blanked (fields, times and who stay)' })
  purged: boolean;

  @ApiProperty({ type: [HistoryChange], description: 'Changed fields (every given field on CREATE; none on DELETE, RESTORE, PURGE)' })
  changes: HistoryChange[];
}
