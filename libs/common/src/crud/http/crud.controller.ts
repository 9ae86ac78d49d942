import { Controller, Delete, Get, Headers, Inject, Post, Put, Res, Type } from '@nestjs/common';
import type { Response } from 'express';
import { ApiBody } from '@nestjs/swagger';
import { Operation } from '../../auth/operation';
import { MAX_IDS_PER_CALL, RequiredQuery, RequiredQueryList } from '../../http/query-params';
import { BULK_BODY_LIMIT } from '../../http/request-body';
import { Failure } from '../../openapi/failures';
import { ApiTag } from '../../openapi/tags';
import { RequestBody } from '../../http/body-param';
import { BaseRecord } from '../../persistence/base-record';
import { AsyncImporter } from '../imports/async-importer';
import { CrudService } from '../service/crud.service';
import { EXAMPLE_ID } from '../fields/fields';
import { ImportOutcome } from '../imports/import-outcome';
import { PAGE_EXTRA_SCHEMA, PAGE_REQUEST_EXAMPLES } from './query-controls';
import { render } from '../../i18n/message';
import { staleRevisionMessage } from '../service/resource-writer';
import { AnyResource, Resource } from '../fields/resource';
import { asyncImportTopic } from '../fields/import-list';
import { assertRowArray, validateAllRows } from '../fields/validate-rows';
import { EXPORT_FORMATS } from '../export/export-format';
import { EXPORT_FILE_SCHEMA, EXPORT_REQUEST_EXAMPLES, exportDescription, exportFailures } from '../export/export-doc';
import { HistoryEntry, HistoryPageRequest } from '../../history/history-request';
import { HISTORY_PAGE_EXAMPLES, HISTORY_PAGE_FAILURES } from '../../history/history-docs';

/** 422 where the resource has a business key. */
const keyTaken = (r: AnyResource, when: string): Failure[] =>
  r.uniqueKey ? [{ status: 422, when: `${r.uniqueKey.join(' + ')} ${when}; nothing is written.`, error: r.duplicateMessage }] : [];

/** 409 of an update whose `revision` is not the stored one, with the text the writer answers. */
export const staleRevision = (r: AnyResource): Failure => ({
  status: 409,
  when: 'The body carries a `revision` that is not the stored one; nothing changes.',
  error: render(staleRevisionMessage(r.title, 1)),
});

/** 400 of a call with more ids than one call takes. */
const tooManyIds = (nothing: string): Failure => ({
  status: 400,
  when: `More than ${MAX_IDS_PER_CALL} ids; nothing is ${nothing}.`,
  error: `Parameter 'ids' takes at most ${MAX_IDS_PER_CALL} values`,
});

const importerTokens = new WeakMap<AnyResource, symbol>();

/** DI token of the AsyncImporter of a resource with an asynchronous importList (one symbol per resource). */
export function importerToken(r: AnyResource): symbol {
  let token = importerTokens.get(r);
  if (!token) importerTokens.set(r, (token = Symbol(`AsyncImporter ${r.path}`)));
  return token;
}

/** The 8 standard operations, validated and documented with the resource's own DTOs. */
function StandardRoutes<E extends BaseRecord>(r: Resource<E>) {
  const record = r.entity;
  class StandardController {
    /** The resource's asynchronous importer (asynchronous importList only): injected once, for importList and importStatus. */
    readonly importer?: AsyncImporter<E>;

    constructor(@Inject(r.serviceToken) readonly crud: CrudService<E>) {}

    @Post('count')
    @Operation({
      summary: `Count ${r.title} records matching the filters`,
      permission: r.permissionFor('read'),
      response: { data: 'integer', example: 1 },
    })
    @ApiBody({ type: r.filterDto })
    count(@RequestBody(r.filterDto) body: object) {
      return this.crud.count(body as never);
    }

    @Get('getById')
    @Operation({
      summary: `Get one ${r.title} record (null when absent or deleted)`,
      permission: r.permissionFor('read'),
      response: { data: record },
    })
    getById(@RequiredQuery('id', `The ${r.idField}`, EXAMPLE_ID) id: string) {
      return this.crud.getById(id);
    }

    @Post('list')
    @Operation({
      summary: `List ${r.title} records (bounded by sqlQueryLimit and LIST_LIMIT_MAX)`,
      permission: r.permissionFor('read'),
      response: { data: [record] },
    })
    @ApiBody({ type: r.listDto })
    list(@RequestBody(r.listDto) body: object) {
      return this.crud.list(body as never);
    }

    @Post('page')
    @Operation({
      summary: `Page through ${r.title} records`,
      permission: r.permissionFor('read'),
      response: { data: [record], extra: PAGE_EXTRA_SCHEMA, extraName: 'Page' },
    })
    @ApiBody({ type: r.pageDto, examples: PAGE_REQUEST_EXAMPLES })
    page(@RequestBody(r.pageDto) body: object) {
      return this.crud.page(body as never);
    }

    @Delete('removeById')
    @Operation({
      summary: `Logically delete one ${r.title} record`,
      permission: r.permissionFor('delete'),
      response: { data: 'boolean', example: true },
    })
    removeById(@RequiredQuery('id', `The ${r.idField}`, EXAMPLE_ID) id: string) {
      return this.crud.removeById(id);
    }

    @Delete('removeByIds')
    @Operation({
      summary: `Logically delete ${r.title} records; true when the batch hit`,
      permission: r.permissionFor('delete'),
      response: { data: 'boolean', example: true },
      failures: [tooManyIds('deleted')],
    })
    removeByIds(@RequiredQueryList('ids', `${r.idField} values, one repeated key per element`, [EXAMPLE_ID]) ids: string[]) {
      return this.crud.removeByIds(ids);
    }

    @Post('save')
    @Operation({
      summary: `Create a ${r.title} record`,
      description: r.uniqueKey
        ? `Refused with status 422 "${r.duplicateMessage}" when ${r.uniqueKey.join(' + ')} is already live in the tenant.`
        : undefined,
      permission: r.permissionFor('create'),
      response: { data: 'boolean', example: true },
      failures: keyTaken(r, 'is already live in the tenant'),
    })
    @ApiBody({ type: r.saveDto })
    save(@RequestBody(r.saveDto) body: object) {
      return this.crud.save(body);
    }

    @Put('updateById')
    @Operation({
      summary: `Update a ${r.title} record; omitted fields keep their value`,
      description: 'data is false when no live record of the tenant has that id; a stale `revision` gives status 409.',
      permission: r.permissionFor('update'),
      response: { data: 'boolean', example: true },
      failures: [staleRevision(r), ...keyTaken(r, 'would become that of another live record of the tenant')],
    })
    @ApiBody({ type: r.updateDto })
    updateById(@RequestBody(r.updateDto) body: object) {
      return this.crud.updateById(body);
    }
  }
  if (asyncImportTopic(r)) Inject(importerToken(r))(StandardController.prototype, 'importer');
  return StandardController;
}

type Base<E extends BaseRecord> = ReturnType<typeof StandardRoutes<E>>;

/** The answer of a synchronous import (every importList that applies its rows before answering). */
export const SYNC_IMPORT_RESPONSE = {
  data: 'boolean',
  example: true,
  extraName: 'Import',
  extra: {
    count: { type: 'integer', example: 2 },
    inserted: { type: 'integer', example: 1 },
    updated: { type: 'integer', example: 1 },
  },
} as const;

function WithImportList<E extends BaseRecord>(Parent: Base<E>, r: Resource<E>): Base<E> {
  const topic = asyncImportTopic(r);
  class ImportListController extends Parent {
    @Post('importList')
    @Operation({
      summary: `Import ${r.title} records (upsert by ${r.uniqueKey?.join(' + ')})`,
      description: topic
        ? `Asynchronous: the batch is stored durably and acknowledged with extraData {batchId, count}; it is published to \`${topic}\` and applied by a consumer; importStatus?batchId= shows the outcome. Invalid rows refuse the whole request.`
        : 'One transaction, all or nothing; invalid rows are reported by index. Re-importing the same rows is harmless.',
      permission: r.permissionFor('create'),
      response: topic
        ? {
            data: 'boolean',
            example: true,
            extraName: 'ImportBatch',
            extra: { batchId: { type: 'string', example: EXAMPLE_ID }, count: { type: 'integer', example: 2 } },
          }
        : SYNC_IMPORT_RESPONSE,
      bodyLimit: BULK_BODY_LIMIT,
    })
    @ApiBody({ type: [r.saveDto] })
    async importList(@RequestBody() body: unknown) {
      assertRowArray(body);
      const rows = await validateAllRows(r.saveDto, body);
      return topic ? this.importer!.enqueue(rows) : this.crud.importRows(rows);
    }
  }
  return ImportListController;
}

function WithImportStatus<E extends BaseRecord>(Parent: Base<E>, r: Resource<E>): Base<E> {
  class ImportStatusController extends Parent {
    @Get('importStatus')
    @Operation({
      summary: `Outcome of an asynchronous ${r.title} import batch`,
      description:
        "data is null when the caller's tenant has no batch with that id. `status` stays PENDING until the consumer applied the batch; " +
        '`rejected` lists the rows it refused. extraData.outboxBacklog counts batches of this import not yet handed to the message broker.',
      permission: r.permissionFor('read'),
      response: { data: ImportOutcome, extra: { outboxBacklog: { type: 'integer', example: 0 } }, extraName: 'OutboxBacklog' },
    })
    importStatus(@RequiredQuery('batchId', 'The batchId that importList returned', EXAMPLE_ID) batchId: string) {
      return this.importer!.status(batchId);
    }
  }
  return ImportStatusController;
}

function WithListCache<E extends BaseRecord>(Parent: Base<E>, r: Resource<E>): Base<E> {
  class ListCacheController extends Parent {
    @Post('listCache')
    @Operation({
      summary: `${r.title} records of the tenant merged with the default tenant's (cached)`,
      description:
        "On the same key the tenant's record wins. Cached per tenant with a TTL (LIST_CACHE_TTL_SECONDS); a write through any replica, an applied import included, is seen by the next call.",
      permission: r.permissionFor('read'),
      response: { data: [r.entity] },
    })
    @ApiBody({ type: r.filterDto })
    listCache(@RequestBody(r.filterDto) body: object) {
      return this.crud.listCache(body as never);
    }
  }
  return ListCacheController;
}

function WithRecycleBin<E extends BaseRecord>(Parent: Base<E>, r: Resource<E>): Base<E> {
  class RecycleBinController extends Parent {
    @Post('deletedPage')
    @Operation({
      summary: `Page through logically deleted ${r.title} records (the recycle bin)`,
      description:
        'Newest deletion first unless `sqlQuerySorter` names a sortable field or `deleteTime`; each record carries its `deleteTime`. ' +
        'Filters as page. Records purged (purgeByIds, retention) are gone.',
      permission: r.permissionFor('read'),
      response: { data: [r.entity], extra: PAGE_EXTRA_SCHEMA, extraName: 'Page' },
    })
    @ApiBody({ type: r.pageDto, examples: PAGE_REQUEST_EXAMPLES })
    deletedPage(@RequestBody(r.pageDto) body: object) {
      return this.crud.deletedPage(body as never);
    }

    @Put('restoreById')
    @Operation({
      summary: `Restore a logically deleted ${r.title} record`,
      description: 'data is true when a deleted record of the tenant came back (revision + 1), false when none has that id.',
      permission: r.permissionFor('update'),
      response: { data: 'boolean', example: true },
      failures: keyTaken(r, 'is live again in another record; nothing changes'),
    })
    restoreById(@RequiredQuery('id', `The ${r.idField}`, EXAMPLE_ID) id: string) {
      return this.crud.restoreById(id);
    }

    @Delete('purgeByIds')
    @Operation({
      summary: `Remove logically deleted ${r.title} records for good`,
      description:
        'data is true when at least one deleted record of the tenant with these ids was removed; live records are never touched.',
      permission: r.permissionFor('delete'),
      response: { data: 'boolean', example: true },
      failures: [tooManyIds('removed')],
    })
    purgeByIds(@RequiredQueryList('ids', `${r.idField} values, one repeated key per element`, [EXAMPLE_ID]) ids: string[]) {
      return this.crud.purgeByIds(ids);
    }
  }
  return RecycleBinController;
}

function WithExport<E extends BaseRecord>(Parent: Base<E>, r: Resource<E>): Base<E> {
  class ExportController extends Parent {
    @Post('export')
    @Operation({
      summary: `Export ${r.title} records as a file (CSV, NDJSON or XLSX)`,
      description: exportDescription(r),
      permission: r.permissionFor('read'),
      raw: {
        contentType: EXPORT_FORMATS.map((f) => f.mediaType),
        description: 'The file, streamed (Content-Disposition: attachment)',
        schema: EXPORT_FILE_SCHEMA,
      },
      failures: exportFailures(),
    })
    @ApiBody({ type: r.pageDto, examples: EXPORT_REQUEST_EXAMPLES })
    async export(@RequestBody(r.pageDto) body: object, @Headers('accept') accept: string | undefined, @Res() res: Response) {
      await this.crud.export(body as never, accept, res);
    }
  }
  return ExportController;
}

function WithHistory<E extends BaseRecord>(Parent: Base<E>, r: Resource<E>): Base<E> {
  class HistoryController extends Parent {
    @Post('historyPage')
    @Operation({
      summary: `Page through the change history of ${r.title} records`,
      description:
        "Newest first. One entry per change of a record, written in the change's own transaction by every write path " +
        '(CREATE with every given field, UPDATE with the changed fields only, DELETE, RESTORE, PURGE). Secret fields appear ' +
        "with `masked: true`, never a value; a purged record's entries keep fields, times and who, without values (`purged`).",
      permission: r.permissionFor('read'),
      response: { data: [HistoryEntry], extra: PAGE_EXTRA_SCHEMA, extraName: 'Page' },
      failures: HISTORY_PAGE_FAILURES,
    })
    @ApiBody({ type: HistoryPageRequest, examples: HISTORY_PAGE_EXAMPLES })
    historyPage(@RequestBody(HistoryPageRequest) body: HistoryPageRequest) {
      return this.crud.historyPage(body);
    }
  }
  return HistoryController;
}

/** The resource's routes as a class to extend (for resources with more than the standard set). */
export function CrudController<E extends BaseRecord>(r: Resource<E>): Base<E> {
  let controller = StandardRoutes(r);
  if (r.importList) controller = WithImportList(controller, r);
  if (asyncImportTopic(r)) controller = WithImportStatus(controller, r);
  if (r.listCache) controller = WithListCache(controller, r);
  if (r.recycleBin) controller = WithRecycleBin(controller, r);
  if (r.export) controller = WithExport(controller, r);
  if (r.history) controller = WithHistory(controller, r);
  return controller;
}

/** The tag's description: what the resource's operations are and who may call them. */
function tagDescriptionOf(r: AnyResource): string {
  const optional = [
    asyncImportTopic(r) && 'importList (asynchronous; outcome via importStatus)',
    r.importList === 'sync' && 'importList (one transaction)',
    r.listCache && "listCache (merged with the default tenant's records)",
    r.recycleBin && 'deletedPage, restoreById, purgeByIds (the recycle bin)',
    r.export && 'export (a file of the records)',
    r.history && 'historyPage (every change of its records)',
  ].filter(Boolean);
  const standard = 'save, getById, page, list, count, updateById, removeById, removeByIds';
  return `${r.title} records: ${[standard, ...optional].join(', ')}. Each needs role \`administrator\` or permission \`${r.permission}:<action>\`.`;
}

/** A ready controller for a resource with only the declared operations. */
export function standardController(r: AnyResource): Type<unknown> {
  const controller = class extends CrudController(r) {};
  Object.defineProperty(controller, 'name', { value: `${r.schemaName}Controller` });
  Controller(r.path)(controller);
  ApiTag(r.tag, tagDescriptionOf(r))(controller);
  return controller;
}

/** Decorates a custom controller class that extends CrudController(r). */
export function ResourceController(r: AnyResource): ClassDecorator {
  return (target) => {
    Controller(r.path)(target);
    ApiTag(r.tag, tagDescriptionOf(r))(target);
  };
}
