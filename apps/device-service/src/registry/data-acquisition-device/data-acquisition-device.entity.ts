import { BaseRecord, URL_SAFE_KEY_TEXT, Field } from '@app/common';
import { Entity } from 'typeorm';
import { ProvisioningSecret, SecretHash } from '../provisioning-secret';
import { EXAMPLE_NUMBER } from '../registry-examples';

/**
 * A registered data-acquisition device: the operator's fields (number, name, remark, secret) and
 * what the device last reported through pushInfo (written only by the device itself).
 * The number is unique across all tenants, so its resource declares it unique across tenants.
 */
@Entity('device_data_acquisition_device')
export class DataAcquisitionDevice extends BaseRecord {
  @Field.id()
  dataAcquisitionDeviceId: string;

  @Field.text({
    ...URL_SAFE_KEY_TEXT,
    required: true,
    example: EXAMPLE_NUMBER.device,
    description: 'Globally unique device number',
  })
  dataAcquisitionDeviceNo: string;

  @Field.text({ max: 255, example: 'Gate scanner 3' })
  name: string | null;

  @Field.text({ max: 500, example: 'Replaced battery 2026-03' })
  remark: string | null;

  @ProvisioningSecret()
  secret?: string;

  // what the device reports through pushInfo: never part of a write body
  @Field.text({ max: 64, readOnly: true, example: '2.4.1', description: 'Reported by the device' })
  firmwareVersion: string | null;

  @Field.text({ max: 64, readOnly: true, example: 'DA-200', description: 'Reported by the device' })
  model: string | null;

  @Field.text({ max: 45, readOnly: true, example: '192.168.1.23', description: 'Reported by the device (IPv4 or IPv6)' })
  ipAddress: string | null;

  @Field.text({ max: 17, readOnly: true, example: '00:1A:2B:3C:4D:5E', description: 'Reported by the device' })
  macAddress: string | null;

  @Field.text({
    max: 64,
    readOnly: true,
    example: EXAMPLE_NUMBER.server,
    description: 'The server the device last reported being bound to',
  })
  dataAcquisitionServerNo: string | null;

  @Field.int({ readOnly: true, example: 87, description: 'Battery level in percent, reported by the device' })
  batteryLevel: number | null;

  @Field.time({ readOnly: true, example: 1763800000000, description: 'Time of the last pushInfo' })
  lastSeenTime: number | null;

  @SecretHash()
  secretHash: string;
}
