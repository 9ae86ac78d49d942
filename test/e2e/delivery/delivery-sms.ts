/**
 * SMS delivery through the `http` provider, against a provider started here: a signed JSON POST (the
 * HMAC-SHA256 of the exact body under the account's secret verifies), the answer's messageId stored as
 * providerMessageId, one package unit used per number (EXHAUSTED when used up), and "no SMS package" when
 * no unit is left. Short backoff and polling via the DISPATCH_* knobs.
 */
import { createHmac } from 'node:crypto';
import { Sms } from '../../../apps/main-service/src/message/sms/sms.entity';
import { SmsProvider, startSmsProvider, waitFor } from './delivery-sinks';
import { startApp, TestApp } from '../../support/test-app';
import { Claims } from '../../support/tokens';

const M = '/main-service/system-api/message';
const SECRET = 'provider-Secret-0042';

describe('SMS delivery', () => {
  let t: TestApp;
  let provider: SmsProvider;

  const admin = (tenantId: string): Claims => ({ tenantId, sub: 'admin' });
  const ok = async (promise: Promise<{ status: number; data: unknown }>) =>
    expect(await promise).toMatchObject({ status: 200, data: true });

  async function tenantWith(
    tenantId: string,
    packages: { smsPackageId: string; totalCount: number; expireTime?: number }[],
  ): Promise<void> {
    await ok(
      t.post(
        `${M}/sms-config/save`,
        {
          smsConfigId: 'smsCfg',
          name: 'gateway',
          provider: 'http',
          endpoint: provider.endpoint,
          accessKeyId: `key-${tenantId}`,
          accessKeySecret: SECRET,
          signName: 'Example',
          enabled: true,
        },
        admin(tenantId),
      ),
    );
    for (const p of packages) await ok(t.post(`${M}/sms-package/save`, { name: p.smsPackageId, ...p }, admin(tenantId)));
  }

  async function saveSms(tenantId: string, body: Record<string, unknown>): Promise<string> {
    const smsId = `sms${Math.random().toString(36).slice(2, 12)}`;
    await ok(t.post(`${M}/sms/save`, { smsId, ...body }, admin(tenantId)));
    return smsId;
  }

  const stored = async (tenantId: string, segment: string, id: string) =>
    (await t.get(`${M}/${segment}/getById?id=${id}`, admin(tenantId))).data;
  const settled = (tenantId: string, smsId: string) =>
    waitFor(
      () => stored(tenantId, 'sms', smsId),
      (s) => s.status !== 'PENDING',
      `SMS ${smsId} to settle`,
    );
  const requestsFor = (accessKeyId: string) => provider.requests.filter((r) => r.headers['x-access-key-id'] === accessKeyId);

  beforeAll(async () => {
    provider = await startSmsProvider();
    t = await startApp({ DISPATCH_ENABLED: 'true', DISPATCH_POLL_MS: '20', DISPATCH_RETRY_BASE_MS: '20', DISPATCH_MAX_RETRIES: '3' });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  describe('SMS over the http provider', () => {
    it('posts a signed JSON request and stores the provider message id; units drop by the number of recipients', async () => {
      await tenantWith('sms-ok', [{ smsPackageId: 'pkgA', totalCount: 5 }]);
      const smsId = await saveSms('sms-ok', {
        phoneNumbers: ['+8613800138000', '+14155550100', '+447700900123'],
        content: 'Your code is 123456',
        params: '{"code":"123456"}',
      });
      const sms = await settled('sms-ok', smsId);
      expect(sms).toMatchObject({
        status: 'SENT',
        retryCount: 1,
        errorMessage: null,
        providerMessageId: expect.stringMatching(/^msg-\d+$/),
      });
      expect(sms.sendTime).toEqual(expect.any(Number));

      const [request] = requestsFor('key-sms-ok');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-signature']).toBe(createHmac('sha256', SECRET).update(request.body).digest('hex'));
      expect(request.headers['x-signature']).not.toBe(createHmac('sha256', 'another-secret').update(request.body).digest('hex'));
      expect(JSON.parse(request.body)).toEqual({
        phoneNumbers: ['+8613800138000', '+14155550100', '+447700900123'],
        content: 'Your code is 123456',
        signName: 'Example',
        templateCode: null,
        params: { code: '123456' },
      });
      expect(request.body).not.toContain(SECRET);
      expect(await stored('sms-ok', 'sms-package', 'pkgA')).toMatchObject({ usedCount: 3, status: 'ACTIVE' });

      const second = await saveSms('sms-ok', { phoneNumbers: ['+8613800138001', '+8613800138002'], content: 'Second' });
      expect(await settled('sms-ok', second)).toMatchObject({ status: 'SENT' });
      expect(await stored('sms-ok', 'sms-package', 'pkgA')).toMatchObject({ usedCount: 5, status: 'EXHAUSTED' });
    });

    it('with no unit left the SMS FAILS with "no SMS package", is not sent, and is not retried', async () => {
      const past = Date.now() - 1000;
      await tenantWith('sms-empty', [
        { smsPackageId: 'pkgUsed', totalCount: 1 },
        { smsPackageId: 'pkgOld', totalCount: 100, expireTime: past },
      ]);
      const first = await saveSms('sms-empty', { phoneNumbers: ['+8613800138000'], content: 'Uses the last unit' });
      expect(await settled('sms-empty', first)).toMatchObject({ status: 'SENT' });
      expect(await stored('sms-empty', 'sms-package', 'pkgUsed')).toMatchObject({ usedCount: 1, status: 'EXHAUSTED' });

      const smsId = await saveSms('sms-empty', { phoneNumbers: ['+8613800138000'], content: 'Nothing left' });
      expect(await settled('sms-empty', smsId)).toMatchObject({
        status: 'FAILED',
        retryCount: 1,
        errorMessage: 'no SMS package',
        providerMessageId: null,
      });
      expect(requestsFor('key-sms-empty')).toHaveLength(1);
      expect(await stored('sms-empty', 'sms-package', 'pkgOld')).toMatchObject({ usedCount: 0 });
    });

    it('units come from several packages when one is not enough, and never from another tenant', async () => {
      await tenantWith('sms-split', [
        { smsPackageId: 'pkgSoon', totalCount: 2, expireTime: Date.now() + 3600_000 },
        { smsPackageId: 'pkgLater', totalCount: 10 },
      ]);
      const smsId = await saveSms('sms-split', { phoneNumbers: ['+8613800138000', '+8613800138001', '+8613800138002'], content: 'Split' });
      expect(await settled('sms-split', smsId)).toMatchObject({ status: 'SENT' });
      expect(await stored('sms-split', 'sms-package', 'pkgSoon')).toMatchObject({ usedCount: 2, status: 'EXHAUSTED' });
      expect(await stored('sms-split', 'sms-package', 'pkgLater')).toMatchObject({ usedCount: 1, status: 'ACTIVE' });
      expect(await stored('sms-ok', 'sms-package', 'pkgA')).toMatchObject({ usedCount: 5 });
    });

    it('a record with a template and no content is rendered with its params; templateCode is the provider template', async () => {
      await tenantWith('sms-tpl', [{ smsPackageId: 'pkgT', totalCount: 10 }]);
      await ok(
        t.post(
          `${M}/sms-template/save`,
          {
            smsTemplateId: 'tplCode',
            code: 'login-code',
            name: 'Login code',
            content: 'Code {{code}} for {{ user }}, <valid> 5 min',
            providerTemplateCode: 'SMS_1001',
            enabled: true,
          },
          admin('sms-tpl'),
        ),
      );
      // content is required by the API: a producer writing rows directly may leave it empty
      await t.dataSource.getRepository(Sms).insert({
        tenantId: 'sms-tpl',
        smsId: 'smsTemplated',
        smsTemplateId: 'tplCode',
        phoneNumbers: ['+8613800138000'],
        content: '',
        params: '{"code":"4711","user":"Ann & Bob"}',
        status: 'PENDING',
        retryCount: 0,
        revision: 1,
        createdUsername: 'producer',
        createdTime: Date.now(),
        lastModifiedUsername: 'producer',
        lastModifiedTime: Date.now(),
      } as Partial<Sms>);
      expect(await settled('sms-tpl', 'smsTemplated')).toMatchObject({ status: 'SENT' });
      const [request] = requestsFor('key-sms-tpl');
      expect(JSON.parse(request.body)).toMatchObject({
        content: 'Code 4711 for Ann & Bob, <valid> 5 min',
        templateCode: 'SMS_1001',
        params: { code: '4711', user: 'Ann & Bob' },
      });
    });

    it('a provider error is retried, then FAILED with the HTTP status; the units are given back', async () => {
      await tenantWith('sms-down', [{ smsPackageId: 'pkgD', totalCount: 10 }]);
      provider.status = 503;
      try {
        const smsId = await saveSms('sms-down', { phoneNumbers: ['+8613800138000', '+8613800138001'], content: 'Unlucky' });
        expect(await settled('sms-down', smsId)).toMatchObject({
          status: 'FAILED',
          retryCount: 3,
          errorMessage: 'SMS provider answered HTTP 503',
        });
      } finally {
        provider.status = 200;
      }
      expect(requestsFor('key-sms-down')).toHaveLength(3);
      expect(await stored('sms-down', 'sms-package', 'pkgD')).toMatchObject({ usedCount: 0, status: 'ACTIVE' });
    });

    it('a provider other than http FAILS at once, taking no unit', async () => {
      await ok(
        t.post(
          `${M}/sms-config/save`,
          {
            name: 'other',
            provider: 'aliyun',
            endpoint: provider.endpoint,
            accessKeyId: 'key-sms-other',
            accessKeySecret: SECRET,
            enabled: true,
          },
          admin('sms-other'),
        ),
      );
      await ok(t.post(`${M}/sms-package/save`, { smsPackageId: 'pkgO', name: 'pkgO', totalCount: 10 }, admin('sms-other')));
      const smsId = await saveSms('sms-other', { phoneNumbers: ['+8613800138000'], content: 'Elsewhere' });
      expect(await settled('sms-other', smsId)).toMatchObject({
        status: 'FAILED',
        retryCount: 1,
        errorMessage: 'unsupported SMS provider aliyun',
      });
      expect(requestsFor('key-sms-other')).toHaveLength(0);
      expect(await stored('sms-other', 'sms-package', 'pkgO')).toMatchObject({ usedCount: 0, revision: 1 });
    });

    it('counts SMS attempts on /metrics', async () => {
      const text = (await t.http().get('/main-service/metrics')).text;
      expect(text).toMatch(/messages_sent_total\{channel="sms",outcome="sent"\} [1-9]/);
      expect(text).toMatch(/messages_sent_total\{channel="sms",outcome="failed"\} [1-9]/);
      expect(text).toMatch(/messages_pending\{channel="sms"\} 0/);
    });
  });
});
