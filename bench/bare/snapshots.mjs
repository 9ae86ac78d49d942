// page, getById and save of main-api/snapshot/device-state-snap as main-service runs them on MySQL:
// the same tenant-scoped statements on the same table and indexes (client-interpolated, as TypeORM
// sends them), count and rows of a page in parallel on two pooled connections, rows returned with the
// entity's field names and `deleteTime` null for live rows.
import { newId } from './ids.mjs';
import { invalid } from './http.mjs';

const TABLE = 'snapshot_device_state_snap';
const PAGE_SIZE_MAX = 1000;
const DEVICE_TYPES = ['DATA_ACQUISITION_DEVICE', 'DATA_ACQUISITION_SERVER', 'DATA_ACQUISITION_BOX', 'FINGERPRINT_SCANNER', 'NFC_READER'];
const STATES = ['ONLINE', 'OFFLINE', 'BUSY', 'CHARGING', 'FAULT'];

/** [field, column] in the entity's order, which is the order of the fields in a response row. */
const FIELDS = [
  'tenantId',
  'revision',
  'createdUsername',
  'createdTime',
  'lastModifiedUsername',
  'lastModifiedTime',
  'deleteTime',
  'snapTime',
  'deviceStateSnapId',
  'deviceNo',
  'deviceType',
  'state',
  'batteryLevel',
  'signalStrength',
  'detail',
].map((field) => [field, field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]);
const SELECT = `SELECT ${FIELDS.map(([field, column]) => `\`${column}\` AS \`${field}\``).join(', ')} FROM \`${TABLE}\``;
const INSERT_COLUMNS = [
  'device_no',
  'device_type',
  'state',
  'battery_level',
  'signal_strength',
  'detail',
  'snap_time',
  'device_state_snap_id',
  'tenant_id',
  'revision',
  'created_username',
  'created_time',
  'last_modified_username',
  'last_modified_time',
  'delete_time',
  // the write stamp the service's save sets, which the table's history trigger reads for its entry
  'last_writer',
  'last_request_id',
  'last_trace_id',
];
const INSERT = `INSERT INTO \`${TABLE}\` (${INSERT_COLUMNS.map((c) => `\`${c}\``).join(', ')}) VALUES (${INSERT_COLUMNS.map(() => '?').join(', ')})`;

const live = (row) => {
  if (row.deleteTime === 0) row.deleteTime = null;
  return row;
};

const optionalInt = (body, name, min, max) => {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (!Number.isInteger(value) || value < min || value > max) throw invalid(`${name} must be an integer from ${min} to ${max}`);
  return value;
};
const optionalText = (body, name, max) => {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > max) throw invalid(`${name} must be a text of at most ${max} characters`);
  return value;
};
const oneOf = (body, name, values, required) => {
  const value = body[name];
  if (value === undefined || value === null) {
    if (required) throw invalid(`${name} is required`);
    return null;
  }
  if (!values.includes(value)) throw invalid(`${name} must be one of ${values.join(', ')}`);
  return value;
};

/** POST page: the filters given (exact fields, snapTime range), default sort snapTime desc, exact total. */
export async function page(pool, caller, body) {
  const current = optionalInt(body, 'current', 0, 1_000_000_000) ?? 0;
  const size = optionalInt(body, 'pageSize', 0, PAGE_SIZE_MAX) ?? 0;
  const conditions = ['`tenant_id` = ?', '`delete_time` = ?'];
  const values = [caller.tenantId, 0];
  for (const [field, column, allowed] of [
    ['deviceNo', 'device_no', null],
    ['deviceType', 'device_type', DEVICE_TYPES],
    ['state', 'state', STATES],
  ]) {
    const value = allowed ? oneOf(body, field, allowed, false) : optionalText(body, field, 64);
    if (value !== null) {
      conditions.unshift(`\`${column}\` = ?`);
      values.unshift(value);
    }
  }
  const start = optionalInt(body, 'snapTimeStart', 0, Number.MAX_SAFE_INTEGER);
  const end = optionalInt(body, 'snapTimeEnd', 0, Number.MAX_SAFE_INTEGER);
  let where = `WHERE (${conditions.join(' AND ')})`;
  if (start !== null) {
    where += ' AND `snap_time` >= ?';
    values.push(start);
  }
  if (end !== null) {
    where += ' AND `snap_time` <= ?';
    values.push(end);
  }
  const offset = Math.max(0, current - 1) * size;
  const [[rows], [[{ cnt }]]] = await Promise.all([
    pool.query(`${SELECT} ${where} ORDER BY \`snap_time\` DESC, \`device_state_snap_id\` DESC LIMIT ${size} OFFSET ${offset}`, values),
    pool.query(`SELECT COUNT(1) AS \`cnt\` FROM \`${TABLE}\` ${where}`, values),
  ]);
  const total = Number(cnt);
  return { data: rows.map(live), extraData: { current, pages: size ? Math.ceil(total / size) : 0, size, total } };
}

/** GET getById?id=: the tenant's live record, or null. */
export async function getById(pool, caller, query) {
  const id = query.get('id');
  if (!id) throw invalid("Required parameter 'id' is missing");
  const [rows] = await pool.query(
    `${SELECT} WHERE ((\`device_state_snap_id\` = ?) AND (\`tenant_id\` = ?) AND (\`delete_time\` = ?)) LIMIT 1`,
    [id, caller.tenantId, 0],
  );
  return { data: rows.length ? live(rows[0]) : null };
}

/**
 * POST save: one new row with a new id, the caller's tenant and name, revision 1, live, stamped with the writer and the
 * request id as the service stamps it (no trace without tracing): the table's trigger writes the same history entry.
 */
export async function save(pool, caller, body, requestId) {
  const deviceNo = optionalText(body, 'deviceNo', 64);
  if (deviceNo === null) throw invalid('deviceNo is required');
  const snapTime = optionalInt(body, 'snapTime', 0, Number.MAX_SAFE_INTEGER);
  if (snapTime === null) throw invalid('snapTime is required');
  const now = Date.now();
  await pool.query(INSERT, [
    deviceNo,
    oneOf(body, 'deviceType', DEVICE_TYPES, true),
    oneOf(body, 'state', STATES, true),
    optionalInt(body, 'batteryLevel', 0, 100),
    optionalInt(body, 'signalStrength', 0, 100),
    optionalText(body, 'detail', 2000),
    snapTime,
    newId(),
    caller.tenantId,
    1,
    caller.user,
    now,
    caller.user,
    now,
    0,
    caller.user,
    requestId,
    null,
  ]);
  return { data: true };
}
