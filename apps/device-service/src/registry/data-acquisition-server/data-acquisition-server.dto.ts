import { ClientId, Text } from '@app/common';
import { DEVICE_NUMBER_MESSAGE, DEVICE_NUMBER_PATTERN } from '../numbers';
import { ProvisioningSecret } from '../provisioning-secret';

export class DataAcquisitionServerSave {
  @ClientId()
  dataAcquisitionServerId?: string;

  @Text({ max: 64, required: true, key: true, pattern: DEVICE_NUMBER_PATTERN, patternMessage: DEVICE_NUMBER_MESSAGE, example: 'DAS-0001' })
  dataAcquisitionServerNo: string;

  @Text({ max: 255, example: 'Plant 1, hall B' })
  name?: string | null;

  @Text({ max: 500, example: 'Rack 4' })
  remark?: string | null;

  @ProvisioningSecret()
  secret: string;
}
