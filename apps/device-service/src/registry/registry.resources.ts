import { ResourceRegistration } from '@app/common';
import { dataAcquisitionDeviceResource } from './data-acquisition-device/data-acquisition-device.resource';
import { dataAcquisitionServerResource } from './data-acquisition-server/data-acquisition-server.resource';

/** The registry behind the device calls (contract.md "Devices"): standard operation sets, Bearer-authenticated. */
export const REGISTRY_RESOURCES: ResourceRegistration[] = [
  { resource: dataAcquisitionServerResource },
  { resource: dataAcquisitionDeviceResource },
];
