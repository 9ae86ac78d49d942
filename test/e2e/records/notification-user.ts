/**
 * The signed-in user's inbox on notification-user (docs/messages.md): a notification reaches a user once it is
 * PUBLISHED, live and its publishTime has come, when it is for ALL users of the tenant, for a role the user's token
 * carries (ROLE with that targetRole), or for listed users (USER) with a notification-user row of the user. One rule
 * for countUnread, markAllRead, myPage and the marks (markRead, markUnread, archive, unarchive). Notifications for
 * ALL users and roles have no row per user until the user changes their state (then the user's row is written).
 * All need no permission (any signed-in user of the tenant) and act only on the caller's rows; the standard
 * operations, which reach every user's rows, keep their permissions.
 */
import { startApp, TestApp } from '../../support/test-app';
import { Claims } from '../../support/tokens';
import type { Json } from '../../support/json';
import { answerSchema } from '../../support/openapi-walk';

const P = '/main-service/system-api/message/notification-user';
const N = '/main-service/system-api/message/notification';
const HOUR = 3600_000;
const ADMIN_A: Claims = { tenantId: 'tenant-a', sub: 'admin' };
/** Users without any role or permission: their own inbox needs none. */
const ALICE: Claims = { tenantId: 'tenant-a', sub: 'alice', roles: [], permissions: [] };
const BOB: Claims = { tenantId: 'tenant-a', sub: 'bob', roles: [], permissions: [] };
/** Another tenant's user with the same name. */
const ALICE_B: Claims = { tenantId: 'tenant-b', sub: 'alice', roles: ['administrator'] };

/** The inbox's operations (no permission, the caller's own rows). */
const INBOX_OPERATIONS = [
  ['post', 'countUnread'],
  ['post', 'markAllRead'],
  ['post', 'myPage'],
  ['put', 'markRead'],
  ['put', 'markUnread'],
  ['put', 'archive'],
  ['put', 'unarchive'],
] as const;
const DATA_TYPES: Record<string, string> = {
  countUnread: 'integer',
  markAllRead: 'integer',
  myPage: 'array',
  markRead: 'boolean',
  markUnread: 'boolean',
  archive: 'boolean',
  unarchive: 'boolean',
};

describe('notification-user inbox', () => {
  let t: TestApp;
  let n = 0;

  /** Saves a notification (as an administrator of its tenant): published an hour ago unless `fields` say otherwise. */
  async function notification(notificationId: string, fields: Record<string, unknown>, admin: Claims): Promise<void> {
    const body = {
      notificationId,
      title: notificationId,
      content: 'Maintenance tonight',
      status: 'PUBLISHED',
      publishTime: Date.now() - HOUR,
      ...fields,
    };
    expect(await t.post(`${N}/save`, body, admin)).toMatchObject({ status: 200, data: true });
  }

  /** Saves a published USER notification and the user's notification-user row of it (as an administrator of the row's tenant); returns the row. */
  async function row(
    username: string,
    read: boolean,
    admin: Claims = ADMIN_A,
    readTime: number | null = read ? 1767225600000 : null,
  ): Promise<Json> {
    const notificationId = `ntf${++n}`;
    await notification(notificationId, { targetType: 'USER' }, admin);
    const saved = await t.post(`${P}/save`, { notificationId, username, read, readTime }, admin);
    expect(saved).toMatchObject({ status: 200, data: true });
    const listed = await t.post(`${P}/list`, { notificationId, username }, admin);
    expect(listed.data).toHaveLength(1);
    return listed.data[0];
  }
  const countUnread = (claims: Claims) => t.post(`${P}/countUnread`, undefined, claims);
  const markAllRead = (claims: Claims) => t.post(`${P}/markAllRead`, undefined, claims);
  const stored = async (rec: Json, admin: Claims = ADMIN_A): Promise<Json> =>
    (await t.get(`${P}/getById?id=${rec.notificationUserId}`, admin)).data;

  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('countUnread and markAllRead', () => {
    let aliceUnread: Json[];
    let aliceRead: Json;
    let aliceDeleted: Json;
    let bobUnread: Json;
    let aliceOtherTenant: Json;

    beforeAll(async () => {
      aliceUnread = [await row('alice', false), await row('alice', false), await row('alice', false)];
      aliceRead = await row('alice', true);
      aliceDeleted = await row('alice', false);
      expect(await t.del(`${P}/removeById?id=${aliceDeleted.notificationUserId}`, ADMIN_A)).toMatchObject({ data: true });
      bobUnread = await row('bob', false);
      await row('Alice', false); // usernames match exactly
      aliceOtherTenant = await row('alice', false, ALICE_B);
    });

    it("countUnread counts only the caller's own live unread rows in the caller's tenant", async () => {
      expect(await countUnread(ALICE)).toMatchObject({ httpStatus: 200, status: 200, error: null, extraData: {}, data: 3 });
      expect(await countUnread(BOB)).toMatchObject({ status: 200, data: 1 });
      expect(await countUnread(ALICE_B)).toMatchObject({ status: 200, data: 1 });
      expect(await countUnread({ tenantId: 'tenant-a', sub: 'nobody' })).toMatchObject({ status: 200, data: 0 });
    });

    it("markAllRead marks the caller's unread rows read with readTime now, and touches nothing else", async () => {
      const untouched = [aliceRead, bobUnread];
      const before = Date.now();
      expect(await markAllRead(ALICE)).toMatchObject({ httpStatus: 200, status: 200, error: null, extraData: {}, data: 3 });
      const after = Date.now();
      for (const rec of aliceUnread) {
        const now = await stored(rec);
        expect(now).toMatchObject({ read: true, revision: 2, lastModifiedUsername: 'alice' });
        expect(now.readTime).toBeGreaterThanOrEqual(before);
        expect(now.readTime).toBeLessThanOrEqual(after);
      }
      for (const rec of untouched) expect(await stored(rec)).toEqual(rec);
      expect(await stored(aliceOtherTenant, ALICE_B)).toEqual(aliceOtherTenant);
      expect(await t.get(`${P}/getById?id=${aliceDeleted.notificationUserId}`, ADMIN_A)).toMatchObject({ data: null });

      expect(await countUnread(ALICE)).toMatchObject({ data: 0 });
      expect(await countUnread(BOB)).toMatchObject({ data: 1 });
      expect(await countUnread(ALICE_B)).toMatchObject({ data: 1 });
    });

    it('a second markAllRead changes nothing (data 0, readTime and revision kept)', async () => {
      const first = await Promise.all(aliceUnread.map((rec) => stored(rec)));
      expect(await markAllRead(ALICE)).toMatchObject({ status: 200, data: 0 });
      expect(await Promise.all(aliceUnread.map((rec) => stored(rec)))).toEqual(first);
    });

    it('a new unread row is counted and marked on its own', async () => {
      const fresh = await row('alice', false);
      expect(await countUnread(ALICE)).toMatchObject({ data: 1 });
      expect(await markAllRead(ALICE)).toMatchObject({ data: 1 });
      expect(await stored(fresh)).toMatchObject({ read: true, readTime: expect.any(Number) });
    });
  });

  describe('notifications for ALL users and visibility', () => {
    const TENANT = 'tenant-inbox';
    const admin: Claims = { tenantId: TENANT, sub: 'admin' };
    const user = (sub: string): Claims => ({ tenantId: TENANT, sub, roles: [], permissions: [] });
    const save = (notificationId: string, fields: Record<string, unknown>, claims: Claims = admin) =>
      notification(notificationId, { publishTime: null, ...fields }, claims);
    const rowsOf = async (username: string) => (await t.post(`${P}/list`, { username }, admin)).data as Json[];

    beforeAll(async () => {
      const now = Date.now();
      await save('allPublished', { targetType: 'ALL', status: 'PUBLISHED', publishTime: now - HOUR });
      await save('allNoTime', { targetType: 'ALL', status: 'PUBLISHED' });
      await save('allDraft', { targetType: 'ALL', status: 'DRAFT' });
      await save('allRevoked', { targetType: 'ALL', status: 'REVOKED', publishTime: now - HOUR });
      await save('allScheduled', { targetType: 'ALL', status: 'PUBLISHED', publishTime: now + 24 * HOUR });
      await save('allDeleted', { targetType: 'ALL', status: 'PUBLISHED', publishTime: now - HOUR });
      expect(await t.del(`${N}/removeById?id=allDeleted`, admin)).toMatchObject({ data: true });
      await save('usersOnly', { targetType: 'USER', status: 'PUBLISHED', publishTime: now - HOUR });
      await save('usersDraft', { targetType: 'USER', status: 'DRAFT' });
      // another tenant's broadcast never reaches this tenant
      await save(
        'allElsewhere',
        { targetType: 'ALL', status: 'PUBLISHED', publishTime: now - HOUR },
        { tenantId: 'tenant-elsewhere', sub: 'admin' },
      );
      for (const [notificationId, username] of [
        ['usersOnly', 'uma'],
        ['usersDraft', 'uma'],
      ]) {
        expect(await t.post(`${P}/save`, { notificationId, username }, admin)).toMatchObject({ data: true });
      }
    });

    it('a user without rows sees the published, due broadcasts of the tenant as unread', async () => {
      expect(await countUnread(user('victor'))).toMatchObject({ status: 200, data: 2 });
      expect(await rowsOf('victor')).toEqual([]);
    });

    it('USER notifications reach the users with a row, once published', async () => {
      // usersOnly (published) and the 2 broadcasts; usersDraft is not visible yet
      expect(await countUnread(user('uma'))).toMatchObject({ data: 3 });
    });

    it('markAllRead writes the read rows of the broadcasts, and clears the count', async () => {
      const before = Date.now();
      expect(await markAllRead(user('victor'))).toMatchObject({ status: 200, data: 2 });
      expect(await countUnread(user('victor'))).toMatchObject({ data: 0 });
      const rows = await rowsOf('victor');
      expect(rows.map((r) => r.notificationId).sort()).toEqual(['allNoTime', 'allPublished']);
      for (const row of rows) {
        expect(row).toMatchObject({
          tenantId: TENANT,
          username: 'victor',
          read: true,
          revision: 1,
          createdUsername: 'victor',
          deleteTime: null,
        });
        expect(row.readTime).toBeGreaterThanOrEqual(before);
        expect(row.notificationUserId).toMatch(/^[0-9A-Za-z]{21}$/);
      }
      expect(await markAllRead(user('victor'))).toMatchObject({ data: 0 });
      // other users still see them
      expect(await countUnread(user('wendy'))).toMatchObject({ data: 2 });
    });

    it('markAllRead leaves rows of notifications that are not visible yet unread', async () => {
      expect(await markAllRead(user('uma'))).toMatchObject({ data: 3 });
      expect(await countUnread(user('uma'))).toMatchObject({ data: 0 });
      const draftRow = (await rowsOf('uma')).find((r) => r.notificationId === 'usersDraft')!;
      expect(draftRow).toMatchObject({ read: false, readTime: null });

      expect(
        await t.put(`${N}/updateById`, { notificationId: 'usersDraft', status: 'PUBLISHED', publishTime: Date.now() - 1000 }, admin),
      ).toMatchObject({ data: true });
      expect(await countUnread(user('uma'))).toMatchObject({ data: 1 });
    });

    it('a broadcast published later reaches users who have read everything before', async () => {
      await save('allLater', { targetType: 'ALL', status: 'PUBLISHED', publishTime: Date.now() - 1000 });
      expect(await countUnread(user('victor'))).toMatchObject({ data: 1 });
      expect(await markAllRead(user('victor'))).toMatchObject({ data: 1 });
      expect(await countUnread(user('victor'))).toMatchObject({ data: 0 });
    });
  });

  describe('myPage, the marks and ROLE notifications', () => {
    const TENANT = 'tenant-my-page';
    const admin: Claims = { tenantId: TENANT, sub: 'admin' };
    const as = (sub: string, ...roles: string[]): Claims => ({ tenantId: TENANT, sub, roles, permissions: [] });
    const PAT = as('pat', 'auditor');
    const PAT_NO_ROLE = as('pat');
    const myPage = (claims: Claims, body: Record<string, unknown> = {}) =>
      t.post(`${P}/myPage`, { current: 1, pageSize: 20, ...body }, claims);
    const ids = async (claims: Claims, body: Record<string, unknown> = {}) =>
      ((await myPage(claims, body)).data as Json[]).map((x) => x.notificationId);
    const mark = (op: string, notificationId: string, claims: Claims) =>
      t.put(`${P}/${op}?notificationId=${notificationId}`, undefined, claims);
    const rowOf = async (username: string, notificationId: string): Promise<Json | undefined> =>
      ((await t.post(`${P}/list`, { username, notificationId }, admin)).data as Json[])[0];
    let now: number;

    beforeAll(async () => {
      now = Date.now();
      const at = (hoursAgo: number) => now - hoursAgo * HOUR;
      await notification('all1', { targetType: 'ALL', publishTime: at(6), level: 'WARNING' }, admin);
      await notification('all2', { targetType: 'ALL', publishTime: at(5) }, admin);
      await notification('allNoTime', { targetType: 'ALL', publishTime: null }, admin);
      await notification('allDraft', { targetType: 'ALL', status: 'DRAFT', publishTime: null }, admin);
      await notification('roleAuditor', { targetType: 'ROLE', targetRole: 'auditor', publishTime: at(4) }, admin);
      await notification('roleOps', { targetType: 'ROLE', targetRole: 'ops', publishTime: at(3) }, admin);
      await notification('roleNobody', { targetType: 'ROLE', publishTime: at(3) }, admin);
      await notification('userPat', { targetType: 'USER', publishTime: at(2) }, admin);
      await notification('userQuinn', { targetType: 'USER', publishTime: at(1) }, admin);
      // a row of pat's for a ROLE notification pat holds no role for reaches nobody
      for (const [notificationId, username] of [
        ['userPat', 'pat'],
        ['userQuinn', 'quinn'],
        ['roleOps', 'pat'],
      ]) {
        expect(await t.post(`${P}/save`, { notificationId, username }, admin)).toMatchObject({ data: true });
      }
      // the same ids and name in another tenant
      await notification('all1', { targetType: 'ALL', publishTime: at(6) }, ALICE_B);
    });

    it('lists what reaches the caller, newest publishTime first, each with the notification and the caller’s state', async () => {
      const page = await myPage(PAT);
      expect(page).toMatchObject({ httpStatus: 200, status: 200, error: null, extraData: { current: 1, pages: 1, size: 20, total: 5 } });
      expect(page.data.map((x: Json) => x.notificationId)).toEqual(['userPat', 'roleAuditor', 'all2', 'all1', 'allNoTime']);
      expect(page.data[3]).toEqual({
        notificationId: 'all1',
        title: 'all1',
        content: 'Maintenance tonight',
        level: 'WARNING',
        publishTime: now - 6 * HOUR,
        read: false,
        readTime: null,
        archived: false,
      });
      expect(await countUnread(PAT)).toMatchObject({ data: 5 });
    });

    it('ROLE notifications reach only callers whose token carries the role', async () => {
      expect(await ids(PAT_NO_ROLE)).toEqual(['userPat', 'all2', 'all1', 'allNoTime']);
      expect(await countUnread(PAT_NO_ROLE)).toMatchObject({ data: 4 });
      expect(await ids(as('olga', 'ops', 'auditor'))).toEqual(['roleOps', 'roleAuditor', 'all2', 'all1', 'allNoTime']);
      expect(await mark('markRead', 'roleAuditor', PAT_NO_ROLE)).toMatchObject({ status: 200, data: false });
      expect(await mark('markRead', 'roleOps', PAT)).toMatchObject({ status: 200, data: false });
      expect(await rowOf('pat', 'roleAuditor')).toBeUndefined();
    });

    it('pages in order with the page envelope', async () => {
      const pages = [];
      for (const current of [1, 2, 3, 4]) {
        const page = await myPage(PAT, { current, pageSize: 2 });
        expect(page.extraData).toEqual({ current, pages: 3, size: 2, total: 5 });
        pages.push(...(page.data as Json[]).map((x) => x.notificationId));
      }
      expect(pages).toEqual(['userPat', 'roleAuditor', 'all2', 'all1', 'allNoTime']);
    });

    it('markRead and markUnread change the caller’s state once, writing a row for an ALL notification', async () => {
      const before = Date.now();
      expect(await mark('markRead', 'all1', PAT)).toMatchObject({ httpStatus: 200, status: 200, error: null, data: true });
      expect(await mark('markRead', 'all1', PAT)).toMatchObject({ data: false });
      const row = (await rowOf('pat', 'all1'))!;
      expect(row).toMatchObject({ read: true, archived: false, revision: 1, createdUsername: 'pat' });
      expect(row.readTime).toBeGreaterThanOrEqual(before);
      expect(await ids(PAT, { read: true })).toEqual(['all1']);
      expect(await ids(PAT, { read: false })).toEqual(['userPat', 'roleAuditor', 'all2', 'allNoTime']);
      // null is "not given": both, not archived
      expect(await ids(PAT, { read: null, archived: null })).toEqual(['userPat', 'roleAuditor', 'all2', 'all1', 'allNoTime']);
      expect((await myPage(PAT, { read: true })).data[0]).toMatchObject({ read: true, readTime: row.readTime });
      expect(await countUnread(PAT)).toMatchObject({ data: 4 });
      // a USER notification's own row
      expect(await mark('markRead', 'userPat', PAT)).toMatchObject({ data: true });
      expect(await countUnread(PAT)).toMatchObject({ data: 3 });

      expect(await mark('markUnread', 'all1', PAT)).toMatchObject({ data: true });
      expect(await rowOf('pat', 'all1')).toMatchObject({ read: false, readTime: null, revision: 2 });
      expect(await mark('markUnread', 'all1', PAT)).toMatchObject({ data: false });
      // without a row an ALL notification is unread already: nothing written
      expect(await mark('markUnread', 'all2', PAT)).toMatchObject({ data: false });
      expect(await rowOf('pat', 'all2')).toBeUndefined();
      expect(await countUnread(PAT)).toMatchObject({ data: 4 });
    });

    it("another user's, another tenant's, unpublished or unknown notifications answer false and change nothing", async () => {
      const quinns = await rowOf('quinn', 'userQuinn');
      for (const op of ['markRead', 'markUnread', 'archive', 'unarchive']) {
        for (const id of ['userQuinn', 'allDraft', 'unknown', 'roleNobody'])
          expect(await mark(op, id, PAT)).toMatchObject({ status: 200, data: false });
      }
      expect(await rowOf('quinn', 'userQuinn')).toEqual(quinns);
      expect(await rowOf('pat', 'allDraft')).toBeUndefined();
      // the same name in tenant-b reaches tenant-b's all1 only
      const aliceB: Claims = { tenantId: 'tenant-b', sub: 'pat', roles: [], permissions: [] };
      expect(await mark('markRead', 'all2', aliceB)).toMatchObject({ data: false });
      expect(await mark('markRead', 'all1', aliceB)).toMatchObject({ data: true });
      expect(await rowOf('pat', 'all1')).toMatchObject({ read: false });
    });

    it('archive leaves a notification out of myPage by default and of countUnread and markAllRead; unarchive brings it back', async () => {
      expect(await mark('archive', 'all2', PAT)).toMatchObject({ data: true });
      expect(await mark('archive', 'all2', PAT)).toMatchObject({ data: false });
      expect(await rowOf('pat', 'all2')).toMatchObject({ archived: true, read: false, readTime: null });
      expect(await ids(PAT)).toEqual(['userPat', 'roleAuditor', 'all1', 'allNoTime']);
      expect(await ids(PAT, { archived: false })).toEqual(['userPat', 'roleAuditor', 'all1', 'allNoTime']);
      expect(await ids(PAT, { archived: true })).toEqual(['all2']);
      expect(await ids(PAT, { archived: true, read: true })).toEqual([]);
      expect(await countUnread(PAT)).toMatchObject({ data: 3 });

      expect(await markAllRead(PAT)).toMatchObject({ data: 3 });
      expect(await countUnread(PAT)).toMatchObject({ data: 0 });
      expect(await rowOf('pat', 'all2')).toMatchObject({ archived: true, read: false });
      expect(await ids(PAT, { read: false })).toEqual([]);

      expect(await mark('unarchive', 'all2', PAT)).toMatchObject({ data: true });
      expect(await mark('unarchive', 'all2', PAT)).toMatchObject({ data: false });
      expect(await countUnread(PAT)).toMatchObject({ data: 1 });
      expect(await ids(PAT, { read: false })).toEqual(['all2']);
      // archiving a notification without a row writes one
      expect(await mark('archive', 'allNoTime', as('rosa'))).toMatchObject({ data: true });
      expect(await rowOf('rosa', 'allNoTime')).toMatchObject({ archived: true, read: false });
      expect(await countUnread(as('rosa'))).toMatchObject({ data: 2 });
    });

    it('concurrent twins both succeed: one answers true, one row is written', async () => {
      for (const [op, id] of [
        ['markRead', 'all1'],
        ['archive', 'all2'],
        ['markRead', 'userPat'],
      ]) {
        const twin = as('twin');
        if (id === 'userPat')
          expect(await t.post(`${P}/save`, { notificationId: id, username: 'twin' }, admin)).toMatchObject({ data: true });
        const answers = await Promise.all([mark(op, id, twin), mark(op, id, twin), mark(op, id, twin)]);
        expect(answers.map((a) => [a.httpStatus, a.status])).toEqual([
          [200, 200],
          [200, 200],
          [200, 200],
        ]);
        expect(answers.filter((a) => a.data === true)).toHaveLength(1);
        const rows = (await t.post(`${P}/list`, { username: 'twin', notificationId: id }, admin)).data as Json[];
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject(op === 'archive' ? { archived: true } : { read: true });
      }
      // two different marks of one notification at once: both kept
      const both = await Promise.all([mark('markRead', 'allNoTime', as('tess')), mark('archive', 'allNoTime', as('tess'))]);
      expect(both.map((a) => a.data)).toEqual([true, true]);
      expect(await rowOf('tess', 'allNoTime')).toMatchObject({ read: true, archived: true });
    });

    it('refuses bad input with the envelope', async () => {
      expect(await t.post(`${P}/myPage`, { current: 1, pageSize: 1001 }, PAT)).toMatchObject({
        httpStatus: 200,
        status: 400,
        error: 'pageSize must not be greater than 1000',
      });
      expect(await t.post(`${P}/myPage`, { pageSize: 10 }, PAT)).toMatchObject({ status: 400, data: null });
      expect(await t.post(`${P}/myPage`, { current: 0, pageSize: 10 }, PAT)).toMatchObject({ status: 400, data: null });
      expect(await t.post(`${P}/myPage`, { current: 1, pageSize: 10, read: 'yes' }, PAT)).toMatchObject({ status: 1003, data: null });
      expect(await t.put(`${P}/markRead`, undefined, PAT)).toMatchObject({ status: 1002, data: null });
      expect(await t.put(`${P}/archive?notificationId=a&notificationId=b`, undefined, PAT)).toMatchObject({ status: 1003, data: null });
      // a username in the body is ignored
      expect((await myPage(PAT, { username: 'quinn' })).data.map((x: Json) => x.notificationId)).not.toContain('userQuinn');
    });
  });

  describe('permissions', () => {
    const only = (sub: string, ...permissions: string[]): Claims => ({ tenantId: 'tenant-a', sub, roles: [], permissions });

    it("a user without permissions uses their own inbox, and a username in the body never reaches another user's rows", async () => {
      const ritas = await row('rita', false);
      const alices = await row('alice', false);
      const rita = only('rita');
      expect(await t.post(`${P}/countUnread`, { username: 'alice' }, rita)).toMatchObject({ httpStatus: 200, status: 200, data: 1 });
      expect(await countUnread(only('rita', 'message-notification:read'))).toMatchObject({ status: 200, data: 1 });
      expect(await t.post(`${P}/markAllRead`, { username: 'alice' }, rita)).toMatchObject({ httpStatus: 200, status: 200, data: 1 });
      expect(await stored(ritas)).toMatchObject({ read: true, lastModifiedUsername: 'rita' });
      expect(await stored(alices)).toEqual(alices);
      expect(await countUnread(rita)).toMatchObject({ data: 0 });
    });

    it("the standard operations, which reach other users' rows, still need their permissions", async () => {
      const alices = await row('alice', false);
      const rita = only('rita');
      for (const [method, op, body] of [
        ['post', 'page', { username: 'alice', current: 1, pageSize: 10 }],
        ['post', 'list', { username: 'alice' }],
        ['post', 'count', { username: 'alice' }],
        ['put', 'updateById', { notificationUserId: alices.notificationUserId, read: true }],
        ['post', 'save', { notificationId: alices.notificationId, username: 'alice', read: true }],
      ] as const) {
        const res = method === 'put' ? await t.put(`${P}/${op}`, body, rita) : await t.post(`${P}/${op}`, body, rita);
        expect(res).toMatchObject({ httpStatus: 403, status: 403, path: `${P}/${op}`, data: null });
      }
      expect(await t.get(`${P}/getById?id=${alices.notificationUserId}`, rita)).toMatchObject({ httpStatus: 403, status: 403 });
      expect(await t.del(`${P}/removeById?id=${alices.notificationUserId}`, rita)).toMatchObject({ httpStatus: 403, status: 403 });
      expect(await stored(alices)).toEqual(alices);
      // an administrator (or a holder of the permission) still reaches any user's rows
      const holder = only('holder', 'message-notification-user:read');
      expect(await t.post(`${P}/list`, { notificationId: alices.notificationId }, holder)).toMatchObject({ status: 200, data: [alices] });
    });

    it('no token gives 401', async () => {
      for (const [method, op] of INBOX_OPERATIONS) {
        const anonymous = await t.http()[method](`${P}/${op}`);
        expect(anonymous.status).toBe(401);
        expect(anonymous.body).toMatchObject({ status: 401, path: `${P}/${op}`, data: null });
      }
    });
  });

  describe('OpenAPI', () => {
    it('lists the inbox operations for any Bearer token, without x-permission, countUnread and markAllRead with an envelope of an integer', async () => {
      const doc = (await t.http().get('/main-service/v3/api-docs')).body;
      for (const [method, op] of INBOX_OPERATIONS) {
        const operation = doc.paths[`${P}/${op}`]?.[method];
        expect(operation).toBeDefined();
        expect(operation['x-permission']).toBeUndefined();
        expect(operation.security).toEqual([{ bearer: [] }]);
        expect(operation.description).toContain('No permission needed: acts only on the caller');
        expect(operation.responses['403']).toBeUndefined();
        expect(operation.tags).toEqual(['message: notification-user']);
        const schema = answerSchema(doc, operation);
        expect({ op, type: schema.properties.data.type }).toEqual({ op, type: DATA_TYPES[op] });
        expect(schema.required).toEqual(expect.arrayContaining(['status', 'data']));
      }
    });

    it('documents myPage with its body, its items and the page extraData', async () => {
      const doc = (await t.http().get('/main-service/v3/api-docs')).body;
      const operation = doc.paths[`${P}/myPage`].post;
      expect(Object.keys(operation.requestBody.content['application/json'].examples)).toEqual(
        expect.arrayContaining(['firstPage', 'unread', 'archived']),
      );
      const bodyRef: string = operation.requestBody.content['application/json'].schema.$ref;
      const body = doc.components.schemas[bodyRef.split('/').pop()!];
      expect(body.required?.sort()).toEqual(['current', 'pageSize']);
      expect([body.properties.read.type, body.properties.archived.type]).toEqual(['boolean', 'boolean']);
      const schema = answerSchema(doc, operation);
      const itemRef: string = schema.properties.data.items.$ref;
      const item = doc.components.schemas[itemRef.split('/').pop()!];
      expect(Object.keys(item.properties).sort()).toEqual([
        'archived',
        'content',
        'level',
        'notificationId',
        'publishTime',
        'read',
        'readTime',
        'title',
      ]);
      expect(Object.keys(schema.properties.extraData.properties).sort()).toEqual(['current', 'pages', 'size', 'total']);
      for (const op of ['markRead', 'markUnread', 'archive', 'unarchive'])
        expect(doc.paths[`${P}/${op}`].put.parameters).toEqual([
          expect.objectContaining({ name: 'notificationId', in: 'query', required: true }),
        ]);
    });
  });
});
