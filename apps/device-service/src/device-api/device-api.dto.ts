import { URL_SAFE_KEY_TEXT, Int, Text } from '@app/common';
import { applyDecorators } from '@nestjs/common';
import { IsIP } from 'class-validator';
import { EXAMPLE_NUMBER } from '../registry/registry-examples';

/** An IPv4 or IPv6 address (at most 45 characters, the longest IPv4-mapped IPv6 form); optional ones skip IsIP when null or omitted (IsOptional). */
const IpAddress = (o: { required?: boolean; example: string; description: string }) =>
  applyDecorators(Text({ max: 45, ...o }), IsIP(undefined, { message: '$property must be an IPv4 or IPv6 address' }));

const MAC_ADDRESS = /^[0-9A-Fa-f]{2}([:-][0-9A-Fa-f]{2}){5}$/;

/**
 * pushInfoByDataAcquisitionDeviceNo body: the device's complete current report. Each push replaces
 * the previous report (an omitted field is stored as null); no server number means "bound to none".
 */
export class DeviceInfoPush {
  @Text({ max: 64, example: '2.4.1' })
  firmwareVersion?: string | null;

  @Text({ max: 64, example: 'DA-200' })
  model?: string | null;

  @IpAddress({ example: '192.168.1.23', description: "The device's own address, IPv4 or IPv6" })
  ipAddress?: string | null;

  @Text({
    max: 17,
    pattern: MAC_ADDRESS,
    patternMessage: '$property must be a MAC address like 00:1A:2B:3C:4D:5E',
    example: '00:1A:2B:3C:4D:5E',
  })
  macAddress?: string | null;

  @Text({
    ...URL_SAFE_KEY_TEXT,
    example: EXAMPLE_NUMBER.server,
    description: 'The server the device is bound to now (registered in the same tenant); null or omitted: none',
  })
  dataAcquisitionServerNo?: string | null;

  @Int({ min: 0, max: 100, example: 87, description: 'Battery level in percent' })
  batteryLevel?: number | null;
}

/** updateInternalIpByDataAcquisitionServerNo body. */
export class InternalIpUpdate {
  @IpAddress({ required: true, example: '10.0.4.17', description: "The server's address in its local network, IPv4 or IPv6" })
  internalIp: string;
}
