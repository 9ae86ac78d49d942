import { ApiTag, RequestBody } from '@app/common';
import { Controller, Post, Put } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { DataAcquisitionServer } from '../registry/data-acquisition-server/data-acquisition-server.entity';
import { Caller, DeviceOperation } from '../token/device-operation';
import { DeviceCaller } from '../token/device-token.service';
import { InternalIpUpdate } from './device-api.dto';
import { TokenIssuingController } from '../token/token-issuing.controller';

@ApiTag(
  'device: data-acquisition-server',
  'The calls of a data-acquisition server (device token): its token, its registry record and its internal IP address.',
)
@Controller('main-api/device/data-acquisition-server')
export class DataAcquisitionServerController extends TokenIssuingController('server') {
  @Post('listByDataAcquisitionServerNo')
  @DeviceOperation('server', {
    summary: "The calling server's registry record, as a list of one",
    description: 'No body needed.',
    response: { data: [DataAcquisitionServer] },
  })
  listByServerNo(@Caller() caller: DeviceCaller) {
    return [caller.record as DataAcquisitionServer]; // read by the token check already
  }

  @Put('updateInternalIpByDataAcquisitionServerNo')
  @DeviceOperation('server', {
    summary: "Store the server's internal IP address (IPv4 or IPv6)",
    description: 'An address that is not IPv4 or IPv6 is refused with status 400 and nothing is stored.',
    response: { data: 'boolean', example: true },
  })
  @ApiBody({ type: InternalIpUpdate })
  updateInternalIp(@Caller() caller: DeviceCaller, @RequestBody(InternalIpUpdate) body: InternalIpUpdate) {
    return this.registry.updateInternalIp(caller.scope, caller.recordId, body.internalIp);
  }
}
