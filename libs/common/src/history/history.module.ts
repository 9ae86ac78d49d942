import { Controller, DynamicModule, Inject, Module, Post } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { Operation } from '../auth/operation';
import { CrudConfig } from '../config/crud.config';
import type { AnyResource } from '../crud/fields/resource';
import { PAGE_EXTRA_SCHEMA } from '../crud/http/query-controls';
import { RequestBody } from '../http/body-param';
import { ApiTag } from '../openapi/tags';
import { TenantScope } from '../tenancy/tenant-scope';
import { HISTORY_PAGE_EXAMPLES, HISTORY_PAGE_FAILURES } from './history-docs';
import { HistoryEntry, TenantHistoryPageRequest } from './history-request';
import { RecordHistoryReader } from './record-history-reader';

/** The permission of the tenant-wide view: role administrator has it, like every permission. */
export const TENANT_HISTORY_PERMISSION = 'record-history:read';

@ApiTag('history', "Every change of the tenant's records, across resources (role administrator).")
@Controller('system-api/history')
class TenantHistoryController {
  constructor(@Inject(RecordHistoryReader) private readonly reader: RecordHistoryReader) {}

  @Post('page')
  @Operation({
    summary: "Page through the change history of all the tenant's records",
    description:
      "Newest first, the entries of every resource with a history (each entry names its `resource`), filtered as a resource's " +
      'historyPage and by `resource` (its permission name).',
    permission: TENANT_HISTORY_PERMISSION,
    response: { data: [HistoryEntry], extra: PAGE_EXTRA_SCHEMA, extraName: 'Page' },
    failures: [
      ...HISTORY_PAGE_FAILURES,
      {
        status: 400,
        when: '`resource` names no resource with a history.',
        error: 'resource no-such-resource has no history',
        input: { set: { resource: 'no-such-resource' } },
      },
    ],
  })
  @ApiBody({ type: TenantHistoryPageRequest, examples: HISTORY_PAGE_EXAMPLES })
  page(@RequestBody(TenantHistoryPageRequest) body: TenantHistoryPageRequest) {
    return this.reader.tenantPage(TenantScope.current(), body);
  }
}

/** The tenant-wide history view over the given resources (those with `history`). */
@Module({})
export class HistoryModule {
  static register(resources: AnyResource[]): DynamicModule {
    return {
      module: HistoryModule,
      controllers: [TenantHistoryController],
      providers: [
        {
          provide: RecordHistoryReader,
          useFactory: (ds: DataSource, config: CrudConfig) =>
            new RecordHistoryReader(
              ds,
              config,
              resources.filter((r) => r.history),
            ),
          inject: [DataSource, CrudConfig],
        },
      ],
    };
  }
}
