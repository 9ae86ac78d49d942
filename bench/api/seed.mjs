// The data of `npm run bench:api`, written straight to the services' migrated databases with
// multi-row INSERTs: device-state snapshots of two tenants, and a device registry (devices and the
// servers they report) whose device tokens the benchmark signs itself.
import { newId } from '../bare/ids.mjs';

export const SNAPSHOT_TABLE = 'snapshot_device_state_snap';
export const DEVICE_TYPES = [
  'DATA_ACQUISITION_DEVICE',
  'DATA_ACQUISITION_SERVER',
  'DATA_ACQUISITION_BOX',
  'FINGERPRINT_SCANNER',
  'NFC_READER',
];
export const STATES = ['ONLINE', 'OFFLINE', 'BUSY', 'CHARGING', 'FAULT'];
export const T0 = Date.UTC(2026, 0, 1);
/** One snapshot per minute per tenant: 100,000 rows span ~69 days. */
export const STEP = 60_000;
const SNAPSHOT_DEVICES = 1000;
const CHUNK = 2_000;

const SNAPSHOT_COLUMNS = [
  'tenant_id',
  'revision',
  'created_username',
  'created_time',
  'last_modified_username',
  'last_modified_time',
  'delete_time',
  'snap_time',
  'device_state_snap_id',
  'device_no',
  'device_type',
  'state',
  'battery_level',
  'signal_strength',
  'detail',
];
const snapshotRow = (tenant, i, id) => {
  const created = T0 + i * STEP;
  return [
    tenant,
    1,
    'seed',
    created,
    'seed',
    created,
    0,
    created,
    id,
    `DEV-${String(i % SNAPSHOT_DEVICES).padStart(4, '0')}`,
    DEVICE_TYPES[i % 5],
    STATES[Math.floor(i / 7) % 5],
    i % 101,
    (i * 7) % 101,
    `firmware 2.4.${i % 10}; storage ${i % 100}% used`,
  ];
};

async function insertRows(db, table, columns, rows) {
  for (let start = 0; start < rows.length; start += CHUNK)
    await db.query(`INSERT INTO \`${table}\` (${columns.map((c) => `\`${c}\``).join(', ')}) VALUES ?`, [rows.slice(start, start + CHUNK)]);
}

/** `rows` snapshots of `tenant`, one a minute from T0; returns their ids. */
export async function seedSnapshots(db, tenant, rows) {
  const ids = Array.from({ length: rows }, newId);
  for (let start = 0; start < rows; start += CHUNK * 5)
    await insertRows(
      db,
      SNAPSHOT_TABLE,
      SNAPSHOT_COLUMNS,
      ids.slice(start, start + CHUNK * 5).map((id, i) => snapshotRow(tenant, start + i, id)),
    );
  await db.query(`ANALYZE TABLE \`${SNAPSHOT_TABLE}\``);
  return ids;
}

const REGISTRY_COLUMNS = [
  'tenant_id',
  'revision',
  'created_username',
  'created_time',
  'last_modified_username',
  'last_modified_time',
  'delete_time',
];
const registryRow = (tenant, now) => [tenant, 1, 'seed', now, 'seed', now, 0];

/**
 * `devices` devices DAD-0001... and `servers` servers DAS-0001... of `tenant`, all with `secretHash`
 * (a hash the service made, so its token call accepts their secret); returns the devices.
 */
export async function seedRegistry(db, tenant, { devices, servers, secretHash }) {
  const now = Date.now();
  const number = (prefix, i) => `${prefix}-${String(i + 1).padStart(4, '0')}`;
  const deviceRecords = Array.from({ length: devices }, (_, i) => ({
    no: number('DAD', i),
    tenantId: tenant,
    recordId: newId(),
    secretHash,
  }));
  await insertRows(
    db,
    'device_data_acquisition_device',
    [...REGISTRY_COLUMNS, 'data_acquisition_device_id', 'data_acquisition_device_no', 'secret_hash'],
    deviceRecords.map((d) => [...registryRow(tenant, now), d.recordId, d.no, secretHash]),
  );
  await insertRows(
    db,
    'device_data_acquisition_server',
    [...REGISTRY_COLUMNS, 'data_acquisition_server_id', 'data_acquisition_server_no', 'secret_hash'],
    Array.from({ length: servers }, (_, i) => [...registryRow(tenant, now), newId(), number('DAS', i), secretHash]),
  );
  return { devices: deviceRecords, serverNos: Array.from({ length: servers }, (_, i) => number('DAS', i)) };
}
