import { ServiceManifest } from '@app/common';
import { DEVICE_ENTITIES } from './device.entities';
import { TEXTS } from './i18n';
import { MIGRATIONS } from './migrations';
import { DEVICE_TOKEN_SCHEME } from './token/device-operation';
import { DeviceServiceConfig } from './device-service.config';

/** device-service: the calls of data-acquisition devices and servers, and their registry. */
export const DEVICE_SERVICE: ServiceManifest = {
  name: 'device-service',
  prefix: 'device-service',
  defaultPort: 3001,
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
  // the device calls carry the token (and the token calls the device's secret) in the query: never logged
  redactedQueryParameters: ['token', 'secret'],
  entities: DEVICE_ENTITIES,
  migrations: MIGRATIONS,
  texts: TEXTS,
  config: [DeviceServiceConfig],
};
