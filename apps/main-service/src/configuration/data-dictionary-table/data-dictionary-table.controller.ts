import { CrudController, Operation, ResourceController, RequestBody, staleRevision } from '@app/common';
import { Post } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { DataDictionaryTableSaveOrUpdate } from './data-dictionary-table.dto';
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
  async saveOrUpdate(@RequestBody(DataDictionaryTableSaveOrUpdate) body: DataDictionaryTableSaveOrUpdate): Promise<true> {
    return this.crud.saveOrUpdate(body);
  }
}
