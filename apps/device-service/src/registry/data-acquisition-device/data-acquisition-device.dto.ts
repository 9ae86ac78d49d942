import { ClientId, Text } from '@app/common';
import { DEVICE_NUMBER_MESSAGE, DEVICE_NUMBER_PATTERN } from '../numbers';
import { ProvisioningSecret } from '../provisioning-secret';

/** The operator's fields; what the device reports (firmware, addresses, server, ...) comes only from pushInfo. */
export class DataAcquisitionDeviceSave {
  @ClientId()
  dataAcquisitionDeviceId?: string;

  @Text({ max: 64, required: true, key: true, pattern: DEVICE_NUMBER_PATTERN, patternMessage: DEVICE_NUMBER_MESSAGE, example: 'DAD-0001' })
  dataAcquisitionDeviceNo: string;

  @Text({ max: 255, example: 'Gate scanner 3' })
  name?: string | null;

  @Text({ max: 500, example: 'Replaced battery 2026-03' })
  remark?: string | null;

  @ProvisioningSecret()
  secret: string;
}
