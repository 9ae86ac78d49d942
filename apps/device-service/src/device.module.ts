import { CrudModule } from '@app/common';
import { Module } from '@nestjs/common';
import { DataAcquisitionDeviceController } from './device-api/data-acquisition-device.controller';
import { DataAcquisitionServerController } from './device-api/data-acquisition-server.controller';
import { DeviceRegistry } from './device-api/device-registry';
import { REGISTRY_RESOURCES } from './registry/registry.resources';
import { DeviceTokenGuard } from './token/device-token.guard';
import { DeviceTokenService } from './token/device-token.service';
import { TokenThrottle } from './token/token-throttle';

/** The registry (Bearer, standard operations) and the 7 device calls (device tokens). */
@Module({
  imports: [CrudModule.register(REGISTRY_RESOURCES)],
  controllers: [DataAcquisitionDeviceController, DataAcquisitionServerController],
  providers: [DeviceRegistry, DeviceTokenService, DeviceTokenGuard, TokenThrottle],
})
export class DeviceModule {}
