import { CommonModule, ServiceDescription } from '@app/common';
import { Module } from '@nestjs/common';
import { DEVICE_ENTITIES } from './device.entities';
import { DeviceModule } from './device.module';
import { MIGRATIONS } from './migrations';
import { DEVICE_TOKEN_SCHEME } from './token/device-operation';

export const DEVICE_SERVICE: ServiceDescription = {
  prefix: 'device-service',
  title: 'device-service',
  description:
    'Device group: calls made by data-acquisition devices and servers with a device token (query parameter `token`), and the Bearer-authenticated registry of devices and servers. Every response is the envelope; check `status` in the body.',
  securitySchemes: {
    [DEVICE_TOKEN_SCHEME]: {
      type: 'apiKey',
      in: 'query',
      name: 'token',
      description: 'Device or server token from getGenerationTokenKeyByDataAcquisitionDeviceNo / ...ServerNo',
    },
  },
};

@Module({
  imports: [CommonModule.forRoot({ name: 'device-service', defaultPort: 3001, entities: DEVICE_ENTITIES, migrations: MIGRATIONS }), DeviceModule],
})
export class AppModule {}
