import { CrudController, Operation, ResourceController, staleRevision, TenantFilter, TenantScope, validationPipe } from '@app/common';
import { Body, Post } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { DataDictionaryTableSaveOrUpdate } from './data-dictionary-table.dto';
import { DataDictionaryTable } from './data-dictionary-table.entity';
import { dataDictionaryTableResource as resource } from './data-dictionary-table.resource';

@ResourceController(resource)
export class DataDictionaryTableController extends CrudController(resource) {
  @Post('saveOrUpdate')
  @Operation({
    summary:
      'Save a data dictionary table row, or update the live row with the same identifier or the same dataDictionaryTypeCode + dataDictionaryCode + row + key',
    description:
      'With the dataDictionaryTableId of a live row of the tenant, that row is updated (its key fields too); otherwise the live row with the same ' +
      `key is updated, or a new row is created. A stale \`revision\` gives status 409; a key already used by another live row gives status 422 "${resource.duplicateMessage}".`,
    permission: resource.permissionFor('create'),
    response: { data: 'boolean', example: true },
    failures: [staleRevision(resource)],
  })
  @ApiBody({ type: DataDictionaryTableSaveOrUpdate })
  async saveOrUpdate(@Body(validationPipe(DataDictionaryTableSaveOrUpdate)) body: DataDictionaryTableSaveOrUpdate): Promise<true> {
    const scope = TenantScope.current();
    const { dataDictionaryTableId: id, revision, ...fields } = body;
    if (id !== undefined && (await this.crud.writer.updateById(scope, { ...fields, dataDictionaryTableId: id, revision }))) return true;
    // no live record of the tenant has that identifier (none given, another tenant's, a deleted one's): upsert by key
    await this.crud.writer.transaction(scope, async (manager) => {
      const key = this.crud.columns.keyOf(fields) as TenantFilter<DataDictionaryTable>;
      const existing = await this.crud.table.findOne(scope, key, { select: { dataDictionaryTableId: true, revision: true }, manager });
      // a new record keeps the client's identifier as save does: the primary key is (tenant, id), so an id
      // of another tenant can neither collide nor reach that tenant's record
      if (!existing) return this.crud.writer.insert(scope, id === undefined ? fields : { ...fields, dataDictionaryTableId: id }, manager);
      if (revision !== undefined && existing.revision !== revision) throw this.crud.writer.stale(revision);
      const match = { dataDictionaryTableId: existing.dataDictionaryTableId, ...(revision === undefined ? {} : { revision }) };
      if ((await this.crud.writer.update(scope, match, fields, manager)) === 0 && revision !== undefined)
        throw this.crud.writer.stale(revision);
    });
    return true;
  }
}
