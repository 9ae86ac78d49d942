import { assertRowArray, BULK_BODY_LIMIT, CrudController, Operation, ResourceController, RequestBody, validateAllRows } from '@app/common';
import { Post } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { ValueSetTableSave } from './value-set-table.dto';
import { valueSetTableResource as resource } from './value-set-table.resource';

@ResourceController(resource)
export class ValueSetTableController extends CrudController(resource) {
  @Post('saveBatch')
  @Operation({
    summary: 'Save value set table rows in one transaction',
    description: `All or nothing: an invalid row gives status 400 naming it; the first duplicate gives status 422 "${resource.duplicateMessage}".`,
    permission: resource.permissionFor('create'),
    response: { data: 'boolean', example: true },
    bodyLimit: BULK_BODY_LIMIT,
  })
  @ApiBody({ type: [ValueSetTableSave] })
  async saveBatch(@RequestBody() body: unknown) {
    assertRowArray(body);
    const rows = await validateAllRows(ValueSetTableSave, body);
    return this.crud.saveBatch(rows);
  }
}
