// Before anything is measured: the bare handler must answer and write exactly as the services do, or
// the comparison would be of different work. Reads are compared answer by answer (timestamp aside);
// writes by the rows they leave (a save's with its history entry), and each target must continue the other's
// binding lifecycles.
import { PUSH_INFO, SNAPSHOTS } from './operations.mjs';
import { STEP, T0 } from './seed.mjs';

async function call(target, method, path, { bearer, body } = {}) {
  const headers = { 'content-type': 'application/json', ...(bearer ? { authorization: bearer } : {}) };
  const res = await fetch(`${target.origin}${path}`, { method, headers, body: body && JSON.stringify(body) });
  const answer = await res.json();
  if (answer.status !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(answer).slice(0, 400)}`);
  return answer;
}

const same = (what, a, b) => {
  const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
  if (x !== y) throw new Error(`${what} differ:\n  service ${x.slice(0, 600)}\n  bare    ${y.slice(0, 600)}`);
};
const without = (row, ...columns) => Object.fromEntries(Object.entries(row).filter(([column]) => !columns.includes(column)));

export async function checkSameAnswers({ targets, bearer, mainDb, deviceDb, devices, serverNos, snapshotIds, seedRows, history }) {
  const { service, bare } = targets;
  const both = async (method, path, body, target = 'main') =>
    Promise.all([service, bare].map((t) => call(t[target], method, path, { bearer, body })));

  const maxSnap = T0 + (seedRows - 1) * STEP;
  const reads = [
    ['page', 'POST', `${SNAPSHOTS}/page`, { current: 1, pageSize: 20 }],
    [
      'page 3',
      'POST',
      `${SNAPSHOTS}/page`,
      { current: 3, pageSize: 20, state: 'BUSY', snapTimeStart: T0 + 86_400_000, snapTimeEnd: T0 + 8 * 86_400_000 },
    ],
    ['getById', 'GET', `${SNAPSHOTS}/getById?id=${snapshotIds[5]}`],
  ];
  for (const [what, method, path, body] of reads) {
    const [a, b] = await both(method, path, body);
    same(what, without(a, 'timestamp'), without(b, 'timestamp'));
  }
  const [first] = await both('POST', `${SNAPSHOTS}/page`, { current: 1, pageSize: 20 });
  if (first.extraData.total !== seedRows || first.data[0].snapTime !== maxSnap)
    throw new Error(`page: ${JSON.stringify(first).slice(0, 400)}`);

  // save: the same body through each; the rows differ only in id and times
  const saved = {};
  for (const [name, target] of Object.entries({ service, bare })) {
    const deviceNo = `SAME-${name}`;
    const body = {
      deviceNo,
      deviceType: 'NFC_READER',
      state: 'ONLINE',
      batteryLevel: 5,
      signalStrength: 6,
      detail: 'same',
      snapTime: T0 - 1,
    };
    await call(target.main, 'POST', `${SNAPSHOTS}/save`, { bearer, body });
    const [[row]] = await mainDb.query('SELECT * FROM snapshot_device_state_snap WHERE device_no = ?', [deviceNo]);
    if (!(Date.now() - row.created_time < 60_000) || row.device_state_snap_id.length !== 21)
      throw new Error(`save: ${JSON.stringify(row)}`);
    if (row.last_request_id?.length !== 36) throw new Error(`save: request id ${row.last_request_id}`);
    // the entry the history trigger wrote (none without the triggers): the request's id, the record's values (its
    // device number aside)
    const [entries] = await mainDb.query('SELECT * FROM record_history WHERE record_id = ?', [row.device_state_snap_id]);
    if (entries.length !== (history ? 1 : 0) || entries.some((entry) => entry.request_id !== row.last_request_id))
      throw new Error(`save: history ${JSON.stringify(entries)}`);
    saved[name] = {
      row: without(row, 'device_state_snap_id', 'device_no', 'created_time', 'last_modified_time', 'last_request_id'),
      history: entries.map((entry) =>
        without(
          { ...entry, changed_values: entry.changed_values.replace(deviceNo, 'SAME') },
          'history_id',
          'record_id',
          'time',
          'request_id',
        ),
      ),
    };
  }
  same('saved rows and their history entries', saved.service, saved.bare);

  // pushInfo: the same report through each, then each continuing the other's lifecycle
  const push = (target, device, serverNo) =>
    call(target.device, 'POST', `${PUSH_INFO}?dataAcquisitionDeviceNo=${device.no}&token=${device.token}`, {
      body: {
        firmwareVersion: '2.4.1',
        model: 'DA-200',
        ipAddress: '192.168.1.23',
        macAddress: '00:1A:2B:3C:4D:5E',
        batteryLevel: 9,
        ...(serverNo ? { dataAcquisitionServerNo: serverNo } : {}),
      },
    });
  const state = async (device) => {
    const [[row]] = await deviceDb.query('SELECT * FROM device_data_acquisition_device WHERE data_acquisition_device_no = ?', [device.no]);
    const [bindings] = await deviceDb.query(
      'SELECT data_acquisition_server_no, state, unbind_time IS NULL AS open FROM device_binding_lifecycle WHERE data_acquisition_device_no = ? ORDER BY bind_time, state',
      [device.no],
    );
    return { device: without(row, 'data_acquisition_device_id', 'data_acquisition_device_no', 'last_seen_time'), bindings };
  };
  const [d0, d1] = devices;
  const [s1, s2] = serverNos;
  await push(service, d0, s1);
  await push(bare, d1, s1);
  same('pushed device and binding', await state(d0), await state(d1));
  await push(bare, d0, s2);
  await push(service, d1, null);
  const expect = (bindings, expected) =>
    same(
      'binding lifecycles',
      bindings.map((b) => [b.data_acquisition_server_no, b.state, Number(b.open)]),
      expected,
    );
  expect((await state(d0)).bindings, [
    [s1, 'UNBOUND', 0],
    [s2, 'BOUND', 1],
  ]);
  expect((await state(d1)).bindings, [[s1, 'UNBOUND', 0]]);
  await push(bare, d0, null);
}
