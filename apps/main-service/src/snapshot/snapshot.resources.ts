import { ResourceRegistration } from '@app/common';
import { dataAcquisitionBoxUsageSnapResource } from './data-acquisition-box-usage-snap/data-acquisition-box-usage-snap.resource';
import { dataAcquisitionDeviceClaimSnapResource } from './data-acquisition-device-claim-snap/data-acquisition-device-claim-snap.resource';
import { dataAcquisitionDeviceGiveBackSnapResource } from './data-acquisition-device-give-back-snap/data-acquisition-device-give-back-snap.resource';
import { dataSyncSnapResource } from './data-sync-snap/data-sync-snap.resource';
import { devicePositionSnapResource } from './device-position-snap/device-position-snap.resource';
import { deviceStateSnapResource } from './device-state-snap/device-state-snap.resource';
import { fingerprintScannerUsageSnapResource } from './fingerprint-scanner-usage-snap/fingerprint-scanner-usage-snap.resource';
import { nfcCardUsageSnapResource } from './nfc-card-usage-snap/nfc-card-usage-snap.resource';

/** The snapshot group's resources (standard operation set only): the one place a new one is registered. */
export const SNAPSHOT_RESOURCES: ResourceRegistration[] = [
  { resource: dataAcquisitionBoxUsageSnapResource },
  { resource: dataAcquisitionDeviceClaimSnapResource },
  { resource: dataAcquisitionDeviceGiveBackSnapResource },
  { resource: dataSyncSnapResource },
  { resource: devicePositionSnapResource },
  { resource: deviceStateSnapResource },
  { resource: fingerprintScannerUsageSnapResource },
  { resource: nfcCardUsageSnapResource },
];

export const SNAPSHOT_ENTITIES = SNAPSHOT_RESOURCES.map((r) => r.resource.entity);
