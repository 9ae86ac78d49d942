// pushInfoByDataAcquisitionDeviceNo as device-service runs it on MySQL: the device token checked
// against the live record of its number (one lookup on the number's unique index, every column), then
// in one transaction the report written to the device row (whose row lock serialises reports of one
// device), the named server's existence checked, and the open binding lifecycle closed and a new one
// opened when the reported server changed. Statements and their order are the service's.
import { isIP } from 'node:net';
import { claimsMatchRecord, deviceClaims } from './auth.mjs';
import { invalid, Refusal } from './http.mjs';
import { newId } from './ids.mjs';

const NUMBER = /^[A-Za-z0-9._:-]{1,64}$/;
const MAC_ADDRESS = /^[0-9A-Fa-f]{2}([:-][0-9A-Fa-f]{2}){5}$/;
const DEVICE_COLUMNS = [
  'tenant_id',
  'revision',
  'created_username',
  'created_time',
  'last_modified_username',
  'last_modified_time',
  'delete_time',
  'data_acquisition_device_id',
  'data_acquisition_device_no',
  'name',
  'remark',
  'firmware_version',
  'model',
  'ip_address',
  'mac_address',
  'data_acquisition_server_no',
  'battery_level',
  'last_seen_time',
  'secret_hash',
];
const CREDENTIALS = `SELECT ${DEVICE_COLUMNS.map((c) => `\`${c}\``).join(', ')} FROM \`device_data_acquisition_device\` WHERE ((\`data_acquisition_device_no\` = ?) AND (\`delete_time\` = ?)) LIMIT 1`;
const WRITE_REPORT =
  'UPDATE `device_data_acquisition_device` SET `firmware_version` = ?, `model` = ?, `ip_address` = ?, `mac_address` = ?, `battery_level` = ?, ' +
  '`data_acquisition_server_no` = ?, `last_seen_time` = ? WHERE (`data_acquisition_device_id` = ? AND `tenant_id` = ? AND `delete_time` = ?)';
const SERVER_EXISTS =
  'SELECT 1 AS `row_exists` FROM (SELECT 1 AS dummy_column) `dummy_table` WHERE EXISTS (SELECT 1 FROM `device_data_acquisition_server` ' +
  'WHERE ((`data_acquisition_server_no` = ?) AND (`tenant_id` = ?) AND (`delete_time` = ?))) LIMIT 1';
const OPEN_BINDING =
  'SELECT `tenant_id`, `binding_lifecycle_id`, `data_acquisition_device_no`, `data_acquisition_server_no`, `bind_time`, `unbind_time`, `state` ' +
  'FROM `device_binding_lifecycle` WHERE ((`data_acquisition_device_no` = ?) AND (`unbind_time` IS NULL) AND (`tenant_id` = ?)) LIMIT 1';
const CLOSE_BINDING =
  'UPDATE `device_binding_lifecycle` SET `unbind_time` = ?, `state` = ? WHERE (`binding_lifecycle_id` = ? AND `tenant_id` = ?)';
const OPEN_NEW_BINDING =
  'INSERT INTO `device_binding_lifecycle`(`tenant_id`, `binding_lifecycle_id`, `data_acquisition_device_no`, `data_acquisition_server_no`, ' +
  '`bind_time`, `unbind_time`, `state`) VALUES (?, ?, ?, ?, ?, ?, ?)';

const text = (body, name, max, pattern) => {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > max || (pattern && !pattern.test(value))) throw invalid(`${name} is not valid`);
  return value;
};

/** The report of a push body: every field optional, an omitted one stored as null. */
function report(body) {
  const ipAddress = text(body, 'ipAddress', 45);
  if (ipAddress !== null && !isIP(ipAddress)) throw invalid('ipAddress must be an IPv4 or IPv6 address');
  const batteryLevel = body.batteryLevel ?? null;
  if (batteryLevel !== null && (!Number.isInteger(batteryLevel) || batteryLevel < 0 || batteryLevel > 100))
    throw invalid('batteryLevel must be an integer from 0 to 100');
  return {
    firmwareVersion: text(body, 'firmwareVersion', 64),
    model: text(body, 'model', 64),
    ipAddress,
    macAddress: text(body, 'macAddress', 17, MAC_ADDRESS),
    batteryLevel,
    serverNo: text(body, 'dataAcquisitionServerNo', 64, NUMBER),
  };
}

/** The device proven by the query's token and number: 401 unless it matches the number's live record. */
export async function deviceCaller(pool, keys, query) {
  const token = query.get('token');
  const claims = token ? deviceClaims(keys, token, 'device') : null;
  if (!claims) throw new Refusal(401, 'Unauthorized');
  const no = query.get('dataAcquisitionDeviceNo');
  if (!no) throw invalid("Required parameter 'dataAcquisitionDeviceNo' is missing");
  if (claims.no !== no) throw new Refusal(403, 'Forbidden');
  const [rows] = await pool.query(CREDENTIALS, [no, 0]);
  const row = rows[0];
  const record = row && { recordId: row.data_acquisition_device_id, tenantId: row.tenant_id, secretHash: row.secret_hash };
  if (!record?.secretHash || !claimsMatchRecord(keys, claims, record)) throw new Refusal(401, 'Unauthorized');
  return { tenantId: record.tenantId, user: `device:${no}`, no, recordId: record.recordId };
}

export async function pushInfo(pool, device, body) {
  const info = report(body);
  const { tenantId, no, recordId } = device;
  const connection = await pool.getConnection();
  try {
    await connection.query('START TRANSACTION');
    const now = Date.now();
    const [written] = await connection.query(WRITE_REPORT, [
      info.firmwareVersion,
      info.model,
      info.ipAddress,
      info.macAddress,
      info.batteryLevel,
      info.serverNo,
      now,
      recordId,
      tenantId,
      0,
    ]);
    if (written.affectedRows === 0) throw new Refusal(401, 'Unauthorized');
    if (info.serverNo) {
      const [found] = await connection.query(SERVER_EXISTS, [info.serverNo, tenantId, 0]);
      if (!found.length) throw invalid(`dataAcquisitionServerNo: no data-acquisition server ${info.serverNo} is registered in this tenant`);
    }
    const [[open]] = await connection.query(OPEN_BINDING, [no, tenantId]);
    if ((open?.data_acquisition_server_no ?? null) !== info.serverNo) {
      if (open) await connection.query(CLOSE_BINDING, [now, 'UNBOUND', open.binding_lifecycle_id, tenantId]);
      if (info.serverNo) await connection.query(OPEN_NEW_BINDING, [tenantId, newId(), no, info.serverNo, now, null, 'BOUND']);
    }
    await connection.query('COMMIT');
  } catch (error) {
    await connection.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    connection.release();
  }
  return { data: true };
}
