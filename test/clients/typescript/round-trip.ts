/**
 * A round trip through the types openapi-typescript generates from both documents, with a typed `fetch`:
 * paths, methods, query parameters, bodies and answers are checked by tsc against the documents. The same
 * checks as the Java round trip; one `ok`/`not ok` line per check.
 *
 * Usage: node round-trip.js http://127.0.0.1:PORT BEARER_TOKEN RUN_ID (compiled by scripts/check-clients.sh)
 */
import type { paths as DevicePaths } from './device-service';
import type { paths as MainPaths } from './main-service';

type Method = 'get' | 'post' | 'put' | 'delete';
type JsonBody<Op> = Op extends { requestBody: { content: { 'application/json': infer B } } } ? B : undefined;
type Query<Op> = Op extends { parameters: { query?: infer Q } } ? Q : undefined;
type Answer<Op> = Op extends { responses: { 200: { content: { 'application/json': infer R } } } } ? R : never;

/** A typed call of one document's operations; `always` query parameters go with every call (a device token). */
function clientOf<Paths>(base: string, headers: Record<string, string>, always: Record<string, string> = {}) {
  return async <P extends keyof Paths & string, M extends keyof Paths[P] & Method>(
    method: M,
    path: P,
    request: { query?: Query<Paths[P][M]>; body?: JsonBody<Paths[P][M]> },
  ): Promise<Answer<Paths[P][M]>> => {
    const url = new URL(path, base);
    for (const [name, value] of Object.entries({ ...always, ...(request.query ?? {}) }))
      for (const item of [value].flat()) url.searchParams.append(name, String(item));
    const json: Record<string, string> = request.body === undefined ? {} : { 'content-type': 'application/json' };
    const res = await fetch(url, {
      method: method.toUpperCase(),
      headers: { ...headers, ...json },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    return (await res.json()) as Answer<Paths[P][M]>;
  };
}

let failed = 0;
function check(name: string, passed: boolean, seen: unknown): void {
  if (!passed) failed++;
  console.log(`${passed ? 'ok' : 'not ok'} - typescript: ${name}${passed ? '' : ` (saw ${JSON.stringify(seen)})`}`);
}

const DICTIONARY = '/main-service/system-api/configuration/data-dictionary';
const EMAIL = '/main-service/system-api/message/email';
const NOTIFICATION = '/main-service/system-api/message/notification';
const INBOX = '/main-service/system-api/message/notification-user';
const DEVICE = '/device-service/main-api/device/data-acquisition-device';

async function main(): Promise<void> {
  const [base, token, run] = process.argv.slice(2);
  const bearer = { authorization: `Bearer ${token}` };
  const call = clientOf<MainPaths>(base, bearer);

  const type = `ts-${run}`;
  const [first, second] = [`tsA${run}`, `tsB${run}`];
  const saved = await call('post', `${DICTIONARY}/save`, {
    body: { dataDictionaryId: first, dataDictionaryTypeCode: type, dataDictionaryCode: 'male', name: 'Male', value: '1', sort: 5 },
  });
  check('save answers status 200, data true', saved.status === 200 && saved.data === true, saved);
  await call('post', `${DICTIONARY}/save`, {
    body: { dataDictionaryId: second, dataDictionaryTypeCode: type, dataDictionaryCode: 'female', name: 'Female', sort: 6 },
  });

  const all = await call('post', `${DICTIONARY}/page`, { body: { current: 1, pageSize: 1000 } });
  const allIds = (all.data ?? []).map((r) => r.dataDictionaryId);
  check('page without a filter lists both records', allIds.includes(first) && allIds.includes(second), allIds);
  const filtered = await call('post', `${DICTIONARY}/page`, { body: { dataDictionaryTypeCode: type, current: 1, pageSize: 10 } });
  check('page with a filter: exactly the two, total 2', filtered.data?.length === 2 && filtered.extraData.total === 2, filtered);

  const found = (await call('get', `${DICTIONARY}/getById`, { query: { id: first } })).data;
  check('getById finds the record', found?.name === 'Male' && found.revision === 1, found);
  const missing = await call('get', `${DICTIONARY}/getById`, { query: { id: `tsMissing${run}` } });
  check('getById of a missing id: status 200, data null', missing.status === 200 && missing.data === null, missing);

  const updated = await call('put', `${DICTIONARY}/updateById`, { body: { dataDictionaryId: first, name: 'Man' } });
  const after = (await call('get', `${DICTIONARY}/getById`, { query: { id: first } })).data;
  check('updateById of name only answers true', updated.data === true, updated);
  check(
    'updateById changed name and kept sort, value and code',
    after?.name === 'Man' && after.sort === 5 && after.value === '1' && after.dataDictionaryCode === 'male' && after.revision === 2,
    after,
  );

  const removed = await call('delete', `${DICTIONARY}/removeByIds`, { query: { ids: [first, second] } });
  const left = await call('post', `${DICTIONARY}/count`, { body: { dataDictionaryTypeCode: type } });
  check('removeByIds of two ids: true, none left', removed.data === true && left.data === 0, left);

  const binned = await call('post', `${DICTIONARY}/deletedPage`, { body: { dataDictionaryTypeCode: type, current: 1, pageSize: 10 } });
  const binnedIds = (binned.data ?? []).map((r) => r.dataDictionaryId);
  check(
    'deletedPage shows both, each with its deleteTime',
    binnedIds.includes(first) && binnedIds.includes(second) && (binned.data ?? []).every((r) => typeof r.deleteTime === 'number'),
    binned,
  );
  const restored = await call('put', `${DICTIONARY}/restoreById`, { query: { id: first } });
  const back = (await call('get', `${DICTIONARY}/getById`, { query: { id: first } })).data;
  check(
    'restoreById brings the record back, revision raised',
    restored.data === true && back?.revision === 3 && back.deleteTime === null,
    back,
  );
  const purged = await call('delete', `${DICTIONARY}/purgeByIds`, { query: { ids: [second] } });
  const again = await call('put', `${DICTIONARY}/restoreById`, { query: { id: second } });
  check('purgeByIds removes for good: restoring it finds nothing', purged.data === true && again.data === false, again);
  const history = await call('post', `${DICTIONARY}/historyPage`, { body: { recordId: second, current: 1, pageSize: 10 } });
  const actions = (history.data ?? []).map((entry) => entry.action);
  check(
    "historyPage: the purged record's entries, newest first, values blanked",
    actions[0] === 'PURGE' && actions[actions.length - 1] === 'CREATE' && (history.data ?? []).every((entry) => entry.purged),
    history,
  );
  await call('delete', `${DICTIONARY}/removeById`, { query: { id: first } });

  const sendTime = 1767225600123; // beyond 32 bits
  const emailId = `tsMail${run}`;
  await call('post', `${EMAIL}/save`, {
    body: {
      emailId,
      fromAddress: 'noreply@example.com',
      toAddresses: ['alice@example.com'],
      subject: 'Hello',
      content: 'Hi',
      status: 'SENT',
      sendTime,
    },
  });
  const email = (await call('get', `${EMAIL}/getById`, { query: { id: emailId } })).data;
  check("an e-mail's sendTime reads back as the same epoch milliseconds", email?.sendTime === sendTime, email);
  const emails = await call('post', `${EMAIL}/page`, { body: { current: 1, pageSize: 1000 } });
  check(
    'an unfiltered e-mail page shows a SENT e-mail',
    (emails.data ?? []).some((e) => e.emailId === emailId),
    emails.extraData,
  );

  const notificationId = `tsNote${run}`;
  await call('post', `${NOTIFICATION}/save`, {
    body: {
      notificationId,
      title: 'Maintenance',
      content: 'Tonight',
      targetType: 'ALL',
      status: 'PUBLISHED',
      publishTime: Date.now() - 1000,
    },
  });
  const inbox = await call('post', `${INBOX}/myPage`, { body: { read: false, current: 1, pageSize: 1000 } });
  const unread = (inbox.data ?? []).find((n) => n.notificationId === notificationId);
  check("myPage lists a notification for ALL users as the caller's unread", unread?.read === false && unread.readTime === null, inbox);
  const marked = await call('put', `${INBOX}/markRead`, { query: { notificationId } });
  const read = (await call('post', `${INBOX}/myPage`, { body: { read: true, current: 1, pageSize: 1000 } })).data ?? [];
  const readOne = read.find((n) => n.notificationId === notificationId);
  check(
    'markRead answers true; myPage then shows it read with its readTime',
    marked.data === true && typeof readOne?.readTime === 'number',
    read,
  );
  await call('delete', `${NOTIFICATION}/removeById`, { query: { id: notificationId } });

  const registry = clientOf<DevicePaths>(base, bearer);
  const deviceNo = `TS-${run}`;
  const secret = `ts-provisioning-secret-${run}`;
  const registered = await registry('post', '/device-service/system-api/device/data-acquisition-device/save', {
    body: { dataAcquisitionDeviceNo: deviceNo, name: 'TypeScript device', secret },
  });
  check('registry: save a device', registered.data === true, registered);

  const anonymous = clientOf<DevicePaths>(base, {});
  const key = await anonymous('get', `${DEVICE}/getGenerationTokenKeyByDataAcquisitionDeviceNo`, {
    query: { dataAcquisitionDeviceNo: deviceNo, secret },
  });
  check('device: token for number and secret', typeof key.data?.token === 'string' && key.data.expiresAt > 1_700_000_000_000, key);
  const device = clientOf<DevicePaths>(base, {}, { token: key.data?.token ?? '' });
  const pushed = await device('post', `${DEVICE}/pushInfoByDataAcquisitionDeviceNo`, {
    query: { dataAcquisitionDeviceNo: deviceNo },
    body: { firmwareVersion: '2.4.1', batteryLevel: 87 },
  });
  const own = (await device('get', `${DEVICE}/getByDataAcquisitionDeviceNo`, { query: { dataAcquisitionDeviceNo: deviceNo } })).data;
  check(
    'device: pushInfo, then its own record shows the report',
    pushed.data === true && own?.firmwareVersion === '2.4.1' && typeof own.lastSeenTime === 'number',
    own,
  );
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((error: unknown) => {
  console.log(`not ok - typescript: round trip stopped: ${String(error)}`);
  process.exit(1);
});
