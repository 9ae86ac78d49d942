import { ApiTag, RequestBody } from '@app/common';
import { Controller, Get, Post } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { BindingLifecycle } from '../binding/binding-lifecycle.entity';
import { DataAcquisitionDevice } from '../registry/data-acquisition-device/data-acquisition-device.entity';
import { Caller, DeviceOperation } from '../token/device-operation';
import { DeviceCaller } from '../token/device-token.service';
import { DeviceInfoPush } from './device-api.dto';
import { TokenIssuingController } from '../token/token-issuing.controller';

@ApiTag(
  'device: data-acquisition-device',
  "The calls of a data-acquisition device (device token): its token, its registry record and its information reports; the server's list of bound devices.",
)
@Controller('main-api/device/data-acquisition-device')
export class DataAcquisitionDeviceController extends TokenIssuingController('device') {
  @Get('getByDataAcquisitionDeviceNo')
  @DeviceOperation('device', {
    summary: "The calling device's registry record (operator fields and its last report)",
    response: { data: DataAcquisitionDevice },
  })
  getByNo(@Caller() caller: DeviceCaller) {
    return caller.record as DataAcquisitionDevice; // read by the token check already
  }

  @Post('pushInfoByDataAcquisitionDeviceNo')
  @DeviceOperation('device', {
    summary: "Report the device's current information",
    description:
      'Stores the report (replacing the previous one) and the last-seen time. When the reported `dataAcquisitionServerNo` differs from the open binding, the open binding lifecycle is closed and, if a server is named, a new one is opened, in one transaction.',
    response: { data: 'boolean', example: true },
  })
  @ApiBody({ type: DeviceInfoPush })
  pushInfo(@Caller() caller: DeviceCaller, @RequestBody(DeviceInfoPush) body: DeviceInfoPush) {
    return this.registry.pushInfo(caller.scope, caller.recordId, caller.no, body);
  }

  @Post('listByDataAcquisitionServerNo')
  @DeviceOperation('server', {
    summary: "Binding lifecycles of the calling server's devices, newest first",
    description:
      'No body needed. `state` is BOUND while the device still reports this server (unbindTime null), else UNBOUND. At most LIST_LIMIT_MAX entries.',
    response: { data: [BindingLifecycle] },
  })
  listByServerNo(@Caller() caller: DeviceCaller) {
    return this.registry.lifecycles(caller.scope, caller.no);
  }
}
