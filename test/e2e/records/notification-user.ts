/**
 * The signed-in user's inbox on notification-user (docs/messages.md): countUnread counts the caller's own
 * live unread rows; markAllRead marks exactly those read (read = true, readTime = now) and answers how many
 * changed. Notifications for ALL users reach every user of the tenant without a row per user: counted
 * unread until the user's read row is written by markAllRead. A notification reaches users once PUBLISHED
 * with its publishTime come. Both need no permission (any signed-in user of the tenant) and act only on
 * the caller's rows; the standard operations, which reach every user's rows, keep their permissions.
 */
import { startApp, TestApp } from '../../support/test-app';
import { Claims } from '../../support/tokens';
import type { Json } from '../../support/json';
import { answerSchema } from '../../support/openapi-walk';

const P = '/main-service/system-api/message/notification-user';
const ADMIN_A: Claims = { tenantId: 'tenant-a', sub: 'admin' };
/** Users without any role or permission: their own inbox needs none. */
const ALICE: Claims = { tenantId: 'tenant-a', sub: 'alice', roles: [], permissions: [] };
const BOB: Claims = { tenantId: 'tenant-a', sub: 'bob', roles: [], permissions: [] };
/** Another tenant's user with the same name. */
const ALICE_B: Claims = { tenantId: 'tenant-b', sub: 'alice', roles: ['administrator'] };

describe('notification-user inbox', () => {
  let t: TestApp;
  let n = 0;

  /** Saves a notification-user row (as an administrator of the row's tenant) and returns it. */
  async function row(
    username: string,
    read: boolean,
    admin: Claims = ADMIN_A,
    readTime: number | null = read ? 1767225600000 : null,
  ): Promise<Json> {
    const notificationId = `ntf${++n}`;
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
    const N = '/main-service/system-api/message/notification';
    const TENANT = 'tenant-inbox';
    const admin: Claims = { tenantId: TENANT, sub: 'admin' };
    const user = (sub: string): Claims => ({ tenantId: TENANT, sub, roles: [], permissions: [] });
    const HOUR = 3600_000;

    async function notification(notificationId: string, fields: Record<string, unknown>, claims: Claims = admin): Promise<void> {
      const body = { notificationId, title: notificationId, content: 'Maintenance tonight', ...fields };
      expect(await t.post(`${N}/save`, body, claims)).toMatchObject({ status: 200, data: true });
    }
    const rowsOf = async (username: string) => (await t.post(`${P}/list`, { username }, admin)).data as Json[];

    beforeAll(async () => {
      const now = Date.now();
      await notification('allPublished', { targetType: 'ALL', status: 'PUBLISHED', publishTime: now - HOUR });
      await notification('allNoTime', { targetType: 'ALL', status: 'PUBLISHED' });
      await notification('allDraft', { targetType: 'ALL', status: 'DRAFT' });
      await notification('allRevoked', { targetType: 'ALL', status: 'REVOKED', publishTime: now - HOUR });
      await notification('allScheduled', { targetType: 'ALL', status: 'PUBLISHED', publishTime: now + 24 * HOUR });
      await notification('allDeleted', { targetType: 'ALL', status: 'PUBLISHED', publishTime: now - HOUR });
      expect(await t.del(`${N}/removeById?id=allDeleted`, admin)).toMatchObject({ data: true });
      await notification('usersOnly', { targetType: 'USER', status: 'PUBLISHED', publishTime: now - HOUR });
      await notification('usersDraft', { targetType: 'USER', status: 'DRAFT' });
      // another tenant's broadcast never reaches this tenant
      await notification(
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
      await notification('allLater', { targetType: 'ALL', status: 'PUBLISHED', publishTime: Date.now() - 1000 });
      expect(await countUnread(user('victor'))).toMatchObject({ data: 1 });
      expect(await markAllRead(user('victor'))).toMatchObject({ data: 1 });
      expect(await countUnread(user('victor'))).toMatchObject({ data: 0 });
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
      for (const op of ['countUnread', 'markAllRead']) {
        const anonymous = await t.http().post(`${P}/${op}`);
        expect(anonymous.status).toBe(401);
        expect(anonymous.body).toMatchObject({ status: 401, path: `${P}/${op}`, data: null });
      }
    });
  });

  describe('OpenAPI', () => {
    it('lists countUnread and markAllRead for any Bearer token, without x-permission, with an envelope of an integer', async () => {
      const doc = (await t.http().get('/main-service/v3/api-docs')).body;
      for (const op of ['countUnread', 'markAllRead']) {
        const operation = doc.paths[`${P}/${op}`]?.post;
        expect(operation).toBeDefined();
        expect(operation['x-permission']).toBeUndefined();
        expect(operation.security).toEqual([{ bearer: [] }]);
        expect(operation.description).toContain('No permission needed: acts only on the caller');
        expect(operation.responses['403']).toBeUndefined();
        expect(operation.tags).toEqual(['message: notification-user']);
        const schema = answerSchema(doc, operation);
        expect(schema.properties.data.type).toBe('integer');
        expect(schema.required).toEqual(expect.arrayContaining(['status', 'data']));
      }
    });
  });
});
