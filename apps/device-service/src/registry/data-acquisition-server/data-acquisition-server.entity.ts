import { BaseRecord, URL_SAFE_KEY_TEXT, Field } from '@app/common';
import { Entity } from 'typeorm';
import { ProvisioningSecret, SecretHash } from '../provisioning-secret';
import { EXAMPLE_NUMBER } from '../registry-examples';

/**
 * A registered data-acquisition server. Its number is unique across all tenants (a device or server
 * proves itself with the number alone), so its resource declares it unique across tenants.
 */
@Entity('device_data_acquisition_server')
export class DataAcquisitionServer extends BaseRecord {
  @Field.id()
  dataAcquisitionServerId: string;

  @Field.text({
    ...URL_SAFE_KEY_TEXT,
    required: true,
    example: EXAMPLE_NUMBER.server,
    description: 'Globally unique server number',
  })
  dataAcquisitionServerNo: string;

  @Field.text({ max: 255, example: 'Plant 1, hall B' })
  name: string | null;

  @Field.text({ max: 500, example: 'Rack 4' })
  remark: string | null;

  @ProvisioningSecret()
  secret?: string;

  @Field.text({
    max: 45,
    readOnly: true,
    example: '10.0.4.17',
    description: 'Reported by the server (updateInternalIpByDataAcquisitionServerNo)',
  })
  internalIp: string | null;

  @Field.time({ readOnly: true, example: 1763800000000, description: 'Time of the last internal IP report' })
  internalIpTime: number | null;

  @SecretHash()
  secretHash: string;
}
