import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { markCompiledRules, NestedTypes } from '../../http/compiled-validation';

export class SqlQuerySorter {
  @ApiPropertyOptional({ example: 'createdTime', description: "One of the resource's sortable fields" })
  @IsString()
  @MaxLength(64)
  field: string;

  @ApiPropertyOptional({ enum: ['ascend', 'descend'], description: 'Omitted: ascend' })
  @IsOptional()
  @IsIn(['ascend', 'descend'])
  order?: 'ascend' | 'descend';
}

markCompiledRules(SqlQuerySorter);

/**
 * The nested objects of the controls, with the classes their `@Type` makes: a list or page body built of
 * vouched-for filters and these controls is checked by compiled rules (markCompiledRules).
 */
export const CONTROL_NESTED_TYPES: NestedTypes = { sqlQuerySorter: SqlQuerySorter };

/** Controls of list: sort and an upper bound (clamped to LIST_LIMIT_MAX). */
export class ListControls {
  @ApiPropertyOptional({ type: SqlQuerySorter })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => SqlQuerySorter)
  sqlQuerySorter?: SqlQuerySorter;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 2147483647,
    example: 100,
    description: 'At most this many rows (and never more than LIST_LIMIT_MAX)',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(2147483647)
  sqlQueryLimit?: number;
}

/** `current` of a page (from 1; 0 and omitted read as the first), as every paged operation takes it. */
export const PageNumber = () =>
  applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 1000000000, example: 1 }),
    IsOptional(),
    IsInt(),
    Min(0),
    Max(1_000_000_000),
  );

/** `pageSize` of a page (its upper bound, PAGE_SIZE_MAX, is the configuration's, checked by the service). */
export const PageSizeNumber = () =>
  applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 0, example: 10, description: 'At most PAGE_SIZE_MAX' }),
    IsOptional(),
    IsInt(),
    Min(0),
  );

/** Controls of page: `current` and `pageSize` default to 0 and are echoed as given. */
export class PageControls extends ListControls {
  @PageNumber()
  current?: number;

  @PageSizeNumber()
  pageSize?: number;
}

/**
 * page's request examples: Swagger UI fills the body with the first, so "Try it out" lists the first page
 * unfiltered (the schema's sample sets every filter to its example and finds nothing). The document adds
 * that sample after it (openapi/document.ts).
 */
export const PAGE_REQUEST_EXAMPLES = {
  firstPage: { summary: 'The first page of 10, no filters', value: { current: 1, pageSize: 10 } },
};

export const PAGE_EXTRA_SCHEMA = {
  current: { type: 'integer', example: 1 },
  pages: { type: 'integer', example: 3 },
  size: { type: 'integer', example: 10 },
  total: { type: 'integer', example: 25 },
};
