import { CrudController, Operation, ResourceController, validationPipe } from '@app/common';
import { Body, Post } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { DataDictionaryTableSave } from './data-dictionary-table.dto';
import { dataDictionaryTableResource as resource } from './data-dictionary-table.resource';

@ResourceController(resource)
export class DataDictionaryTableController extends CrudController(resource) {
  @Post('saveOrUpdate')
  @Operation({
    summary: 'Save a data dictionary table row, or update the live row with the same dataDictionaryTypeCode + dataDictionaryCode + row + key',
    permission: resource.permissionFor('create'),
    response: { data: 'boolean', example: true },
  })
  @ApiBody({ type: DataDictionaryTableSave })
  saveOrUpdate(@Body(validationPipe(DataDictionaryTableSave)) body: DataDictionaryTableSave) {
    return this.crud.saveOrUpdate(body);
  }
}
