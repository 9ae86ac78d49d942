/**
 * Closed value sets of the snapshot group (documented in docs/snapshots.md). Stored as these upper-case strings, matched exactly.
 */
export const DEVICE_TYPES = [
  'DATA_ACQUISITION_DEVICE',
  'DATA_ACQUISITION_SERVER',
  'DATA_ACQUISITION_BOX',
  'FINGERPRINT_SCANNER',
  'NFC_READER',
] as const;
export const DEVICE_STATES = ['ONLINE', 'OFFLINE', 'BUSY', 'CHARGING', 'FAULT'] as const;
/** Outcome of one fingerprint scan or NFC card read: accepted, rejected (no match / unknown card), device error. */
export const USAGE_RESULTS = ['SUCCESS', 'FAILURE', 'ERROR'] as const;
/** State of a device when it is given back. */
export const GIVE_BACK_CONDITIONS = ['GOOD', 'WORN', 'DAMAGED', 'MISSING_PARTS'] as const;
export const SYNC_TYPES = ['FULL', 'INCREMENTAL'] as const;
export const SYNC_STATUSES = ['RUNNING', 'SUCCEEDED', 'FAILED'] as const;
