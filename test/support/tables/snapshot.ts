/**
 * The 8 snapshot resources (fields messages.md / snapshots.md; value sets, ranges and main time
 * fields docs/snapshots.md). No business key: every snapshot is its own record.
 */
import { HOUR, InvalidCase, newest, notOneOf, ResourceGroup, ResourceSpec, SampleRecord, T0, tooLong } from '../resource-table';
import { declared, DeclaredFacts } from './declared';

/** A number of metres per label, for updating a nullable numeric field (distinct labels, distinct values). */
const metres = (label: string): number => [...label].reduce((sum, ch, i) => (sum + ch.charCodeAt(0) * (i + 7)) % 90_000, 0) / 10;

/** Snapshots have no business key, so no duplicate text. */
const common = (segment: string): Pick<ResourceSpec, keyof DeclaredFacts | 'duplicateText'> => ({
  ...declared(segment),
  duplicateText: null,
});

/**
 * A time of something that happened, far beyond the clock-skew allowance (docs/decisions.md: at most 24 hours after
 * the server's time): retention by age would never reach a snapshot dated so.
 */
const inYear2200 = (field: string): InvalidCase => ({ why: `${field} in the year 2200`, patch: { [field]: Date.UTC(2200, 0, 1) }, field });

/** Times of what happened, an hour ahead of the server's clock (a device clock running fast): within the allowance. */
const anHourAhead = (...fields: string[]) => ({
  why: `${fields.join(' and ')} an hour ahead of the server's clock`,
  patch: Object.fromEntries(fields.map((field) => [field, Date.now() + HOUR])),
});

/** Failures every snapshot shares: the device number's characters, snapTime's type, sign and bound. */
const noAndSnapTime = (noField: string): InvalidCase[] => [
  { why: `${noField} with a space`, patch: { [noField]: 'DEV 01' }, field: noField },
  { why: `${noField} with a slash`, patch: { [noField]: 'DEV/01' }, field: noField },
  { why: 'snapTime negative', patch: { snapTime: -1 }, field: 'snapTime' },
  { why: 'snapTime fractional', patch: { snapTime: 1.5 }, field: 'snapTime', status: 1003 },
  { why: 'snapTime as a date string', patch: { snapTime: '2026-01-01T00:00:00Z' }, field: 'snapTime', status: 1003 },
  inYear2200('snapTime'),
];

const usage = (segment: string, noField: string, sample: (s: string) => SampleRecord): ResourceSpec => ({
  ...common(segment),
  sample,
  requiredFields: [noField, 'result', 'snapTime'],
  filterAlternatives: { result: 'FAILURE' },
  sortField: noField,
  defaultSort: { field: 'snapTime', order: 'descend', value: newest },
  updateField: 'username',
  typedField: 'snapTime',
  maxLength: { field: noField, max: 64 },
  invalid: [
    ...noAndSnapTime(noField),
    notOneOf('result', 'MATCHED'),
    notOneOf('result', 'success'),
    tooLong('username', 128),
    { why: 'dataAcquisitionDeviceNo a number', patch: { dataAcquisitionDeviceNo: 12 }, field: 'dataAcquisitionDeviceNo', status: 1003 },
  ],
  validEdges: [anHourAhead('snapTime')],
});

export const SNAPSHOT_RESOURCES: ResourceSpec[] = [
  {
    ...common('data-acquisition-box-usage-snap'),
    sample: (s) => ({
      boxNo: `BOX-${s}`,
      dataAcquisitionServerNo: `DAS-${s}`,
      username: `user-${s}`,
      startTime: T0,
      endTime: T0 + HOUR,
      snapTime: T0 + HOUR,
      remark: `remark ${s}`,
    }),
    requiredFields: ['boxNo', 'startTime', 'snapTime'],
    sortField: 'boxNo',
    defaultSort: { field: 'startTime', order: 'descend', value: newest },
    updateField: 'remark',
    typedField: 'startTime',
    maxLength: { field: 'boxNo', max: 64 },
    invalid: [
      ...noAndSnapTime('boxNo'),
      { why: 'startTime negative', patch: { startTime: -5 }, field: 'startTime' },
      { why: 'endTime as a string', patch: { endTime: 'later' }, field: 'endTime', status: 1003 },
      inYear2200('startTime'),
      inYear2200('endTime'),
      tooLong('username', 128),
      tooLong('remark', 500),
    ],
    validEdges: [anHourAhead('startTime', 'endTime', 'snapTime')],
  },
  {
    ...common('data-acquisition-device-claim-snap'),
    sample: (s) => ({
      dataAcquisitionDeviceNo: `DAD-${s}`,
      username: `user-${s}`,
      claimTime: T0,
      expectedReturnTime: T0 + 24 * HOUR,
      snapTime: T0 + 60_000,
      remark: `remark ${s}`,
    }),
    requiredFields: ['dataAcquisitionDeviceNo', 'username', 'claimTime', 'snapTime'],
    sortField: 'dataAcquisitionDeviceNo',
    defaultSort: { field: 'claimTime', order: 'descend', value: newest },
    updateField: 'remark',
    typedField: 'claimTime',
    maxLength: { field: 'dataAcquisitionDeviceNo', max: 64 },
    invalid: [
      ...noAndSnapTime('dataAcquisitionDeviceNo'),
      { why: 'expectedReturnTime negative', patch: { expectedReturnTime: -1 }, field: 'expectedReturnTime' },
      inYear2200('claimTime'),
      tooLong('username', 128),
      tooLong('remark', 500),
    ],
    validEdges: [
      anHourAhead('claimTime', 'snapTime'),
      // when the device is due back lies ahead: not bounded
      { why: 'expectedReturnTime in the year 2200', patch: { expectedReturnTime: Date.UTC(2200, 0, 1) } },
    ],
  },
  {
    ...common('data-acquisition-device-give-back-snap'),
    sample: (s) => ({
      dataAcquisitionDeviceNo: `DAD-${s}`,
      username: `user-${s}`,
      giveBackTime: T0 + 2 * HOUR,
      condition: 'GOOD',
      snapTime: T0 + 2 * HOUR,
      remark: `remark ${s}`,
    }),
    requiredFields: ['dataAcquisitionDeviceNo', 'username', 'giveBackTime', 'condition', 'snapTime'],
    filterAlternatives: { condition: 'DAMAGED' },
    sortField: 'dataAcquisitionDeviceNo',
    defaultSort: { field: 'giveBackTime', order: 'descend', value: newest },
    updateField: 'remark',
    typedField: 'giveBackTime',
    maxLength: { field: 'dataAcquisitionDeviceNo', max: 64 },
    invalid: [
      ...noAndSnapTime('dataAcquisitionDeviceNo'),
      notOneOf('condition', 'BROKEN'),
      notOneOf('condition', 'good'),
      { why: 'giveBackTime as a string', patch: { giveBackTime: 'today' }, field: 'giveBackTime', status: 1003 },
      inYear2200('giveBackTime'),
    ],
    validEdges: [anHourAhead('giveBackTime', 'snapTime')],
  },
  {
    ...common('data-sync-snap'),
    sample: (s) => ({
      dataAcquisitionServerNo: `DAS-${s}`,
      syncType: 'INCREMENTAL',
      startTime: T0,
      endTime: T0 + 60_000,
      recordCount: 1250,
      status: 'SUCCEEDED',
      errorMessage: `note ${s}`,
      snapTime: T0 + 60_000,
    }),
    requiredFields: ['dataAcquisitionServerNo', 'syncType', 'startTime', 'status', 'snapTime'],
    filterAlternatives: { syncType: 'FULL', status: 'FAILED' },
    sortField: 'dataAcquisitionServerNo',
    defaultSort: { field: 'startTime', order: 'descend', value: newest },
    updateField: 'errorMessage',
    typedField: 'startTime',
    maxLength: { field: 'dataAcquisitionServerNo', max: 64 },
    invalid: [
      ...noAndSnapTime('dataAcquisitionServerNo'),
      notOneOf('syncType', 'PARTIAL'),
      notOneOf('status', 'DONE'),
      { why: 'recordCount negative', patch: { recordCount: -1 }, field: 'recordCount' },
      { why: 'recordCount fractional', patch: { recordCount: 2.5 }, field: 'recordCount', status: 1003 },
      { why: 'recordCount above the int column', patch: { recordCount: 2147483648 }, field: 'recordCount' },
      inYear2200('startTime'),
      inYear2200('endTime'),
      tooLong('errorMessage', 2000),
    ],
    validEdges: [
      anHourAhead('startTime', 'endTime', 'snapTime'),
      {
        why: 'recordCount 0 of a running full sync without end',
        patch: { recordCount: 0, syncType: 'FULL', status: 'RUNNING', endTime: null },
      },
      { why: 'snapTime 0 (the epoch)', patch: { snapTime: 0 } },
    ],
  },
  {
    ...common('device-position-snap'),
    sample: (s) => ({
      deviceNo: `DEV-${s}`,
      deviceType: 'DATA_ACQUISITION_DEVICE',
      longitude: 116.397128,
      latitude: 39.916527,
      altitude: 43.5,
      accuracy: 5,
      snapTime: T0,
    }),
    requiredFields: ['deviceNo', 'deviceType', 'longitude', 'latitude', 'snapTime'],
    filterAlternatives: { deviceType: 'NFC_READER' },
    sortField: 'deviceNo',
    defaultSort: { field: 'snapTime', order: 'descend', value: newest },
    updateField: 'altitude',
    updateValue: metres,
    typedField: 'longitude',
    maxLength: { field: 'deviceNo', max: 64 },
    invalid: [
      ...noAndSnapTime('deviceNo'),
      notOneOf('deviceType', 'PHONE'),
      { why: 'longitude above 180', patch: { longitude: 180.000001 }, field: 'longitude' },
      { why: 'longitude below -180', patch: { longitude: -180.5 }, field: 'longitude' },
      { why: 'latitude above 90', patch: { latitude: 90.1 }, field: 'latitude' },
      { why: 'latitude below -90', patch: { latitude: -91 }, field: 'latitude' },
      { why: 'latitude as a string', patch: { latitude: '39.9' }, field: 'latitude', status: 1003 },
      { why: 'accuracy negative', patch: { accuracy: -1 }, field: 'accuracy' },
      { why: 'altitude above 100 km', patch: { altitude: 100_001 }, field: 'altitude' },
    ],
    validEdges: [
      { why: 'longitude 180 and latitude -90', patch: { longitude: 180, latitude: -90 } },
      { why: 'longitude -180 and latitude 90', patch: { longitude: -180, latitude: 90 } },
      {
        why: 'a precise fractional position, accuracy 0',
        patch: { longitude: -0.1275862, latitude: 51.5072178, altitude: -12.25, accuracy: 0 },
      },
      anHourAhead('snapTime'),
    ],
  },
  {
    ...common('device-state-snap'),
    sample: (s) => ({
      deviceNo: `DEV-${s}`,
      deviceType: 'FINGERPRINT_SCANNER',
      state: 'ONLINE',
      batteryLevel: 87,
      signalStrength: 72,
      detail: `detail ${s}`,
      snapTime: T0,
    }),
    requiredFields: ['deviceNo', 'deviceType', 'state', 'snapTime'],
    filterAlternatives: { deviceType: 'NFC_READER', state: 'FAULT' },
    sortField: 'deviceNo',
    defaultSort: { field: 'snapTime', order: 'descend', value: newest },
    updateField: 'detail',
    typedField: 'snapTime',
    maxLength: { field: 'deviceNo', max: 64 },
    invalid: [
      ...noAndSnapTime('deviceNo'),
      notOneOf('state', 'SLEEPING'),
      notOneOf('deviceType', 'data_acquisition_device'),
      { why: 'batteryLevel above 100', patch: { batteryLevel: 101 }, field: 'batteryLevel' },
      { why: 'batteryLevel negative', patch: { batteryLevel: -1 }, field: 'batteryLevel' },
      { why: 'batteryLevel fractional', patch: { batteryLevel: 50.5 }, field: 'batteryLevel', status: 1003 },
      { why: 'signalStrength above 100', patch: { signalStrength: 101 }, field: 'signalStrength' },
      tooLong('detail', 2000),
    ],
    validEdges: [
      { why: 'batteryLevel 0 and signalStrength 100', patch: { batteryLevel: 0, signalStrength: 100 } },
      { why: 'batteryLevel 100 and signalStrength 0', patch: { batteryLevel: 100, signalStrength: 0, state: 'CHARGING' } },
      anHourAhead('snapTime'),
    ],
  },
  usage('fingerprint-scanner-usage-snap', 'fingerprintScannerNo', (s) => ({
    fingerprintScannerNo: `FPS-${s}`,
    dataAcquisitionDeviceNo: `DAD-${s}`,
    username: `user-${s}`,
    result: 'SUCCESS',
    snapTime: T0,
  })),
  usage('nfc-card-usage-snap', 'nfcCardNo', (s) => ({
    nfcCardNo: `04A2${s}`,
    dataAcquisitionDeviceNo: `DAD-${s}`,
    username: `user-${s}`,
    result: 'SUCCESS',
    snapTime: T0,
  })),
];

export const SNAPSHOT_GROUP: ResourceGroup = { name: 'snapshot', resources: SNAPSHOT_RESOURCES };
