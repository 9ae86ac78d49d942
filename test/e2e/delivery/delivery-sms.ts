/**
 * SMS delivery through the `http` provider, against a provider started here: a signed JSON POST (the
 * HMAC-SHA256 of method, path, timestamp, nonce and exact body under the account's secret verifies), the
 * answer's messageId stored as providerMessageId, one package unit used per number (EXHAUSTED when used up),
 * and "no SMS package" when no unit is left. The providers listen on loopback addresses, which
 * DELIVERY_ALLOWED_HOSTS allows (127.0.0.1 and 127.0.0.2; 127.0.0.3 stands for an internal address nobody
 * allowed). Short backoff and polling via the DISPATCH_* knobs.
 */
import { createHmac } from 'node:crypto';
import { DeliveryResolver } from '../../../apps/main-service/src/message/delivery/address-guard';
import { Sms } from '../../../apps/main-service/src/message/sms/sms.entity';
import { SECRET_BOUND_FIELDS, SmsConfig } from '../../../apps/main-service/src/message/sms-config/sms-config.entity';
import { ProviderRequest, SmsProvider, startSmsProvider, waitFor } from '../../support/delivery-sinks';
import { LogCapture } from '../../support/observability';
import { startApp, TestApp } from '../../support/test-app';
import { TestResolver } from '../../support/test-resolver';
import { Claims } from '../../support/tokens';

/** What a provider computes to check a request (docs/messages.md "SMS request signature"). */
const expectedSignature = (r: ProviderRequest, secret: string) =>
  createHmac('sha256', secret).update([r.method, r.url, r.headers['x-timestamp'], r.headers['x-nonce'], r.body].join('\n')).digest('hex');

const M = '/main-service/system-api/message';
const SECRET = 'provider-Secret-0042';

describe('SMS delivery', () => {
  let t: TestApp;
  let provider: SmsProvider;
  const logs = new LogCapture();

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
    t = await startApp(
      {
        DISPATCH_ENABLED: 'true',
        DISPATCH_POLL_MS: '20',
        DISPATCH_RETRY_BASE_MS: '20',
        DISPATCH_MAX_RETRIES: '3',
        DELIVERY_ALLOWED_HOSTS: '127.0.0.1,127.0.0.2',
        LOG_LEVEL: 'warn',
      },
      { logTo: logs },
    );
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
      expect(request).toMatchObject({ method: 'POST', url: '/sms/send' });
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-signature']).toBe(expectedSignature(request, SECRET));
      expect(request.headers['x-signature']).not.toBe(expectedSignature(request, 'another-secret'));
      // fresh: a provider refuses a timestamp outside its window and a nonce it has seen
      expect(Math.abs(Number(request.headers['x-timestamp']) - Date.now())).toBeLessThan(60_000);
      expect(request.headers['x-nonce']).toMatch(/^[0-9a-f]{32}$/);
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
      const [, again] = requestsFor('key-sms-ok');
      expect(again.headers['x-nonce']).not.toBe(request.headers['x-nonce']);
      expect(again.headers['x-signature']).toBe(expectedSignature(again, SECRET));
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
      let smsId = '';
      try {
        smsId = await saveSms('sms-down', { phoneNumbers: ['+8613800138000', '+8613800138001'], content: 'Unlucky' });
        expect(await settled('sms-down', smsId)).toMatchObject({
          status: 'FAILED',
          retryCount: 3,
          errorMessage: 'REJECTED HTTP 503',
        });
      } finally {
        provider.status = 200;
      }
      expect(requestsFor('key-sms-down')).toHaveLength(3);
      expect(await stored('sms-down', 'sms-package', 'pkgD')).toMatchObject({ usedCount: 0, status: 'ACTIVE' });
      // each attempt logged at warn: the stored failure and what comes next, never the provider's text or a secret
      const failures = logs.lines.filter((l) => l.msg === 'delivery attempt failed' && l.tenantId === 'sms-down');
      expect(
        failures.map(({ level, channel, messageId, failure, attempt, willRetry }) => ({
          level,
          channel,
          messageId,
          failure,
          attempt,
          willRetry,
        })),
      ).toEqual(
        [1, 2, 3].map((attempt) => ({
          level: 40,
          channel: 'sms',
          messageId: smsId,
          failure: 'REJECTED HTTP 503',
          attempt,
          willRetry: attempt < 3,
        })),
      );
      expect(failures.map((l) => typeof l.retryInMs)).toEqual(['number', 'number', 'undefined']);
      expect(JSON.stringify(failures)).not.toMatch(/unavailable|provider-Secret/);
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

    it('an answer whose messageId is not an id is kept nowhere: retried, then FAILED with PROTOCOL; units given back', async () => {
      await tenantWith('sms-banner', [{ smsPackageId: 'pkgB', totalCount: 10 }]);
      try {
        for (const [answer, reason] of [
          [JSON.stringify({ messageId: 'SSH-2.0-OpenSSH_9.6 internal admin banner' }), 'PROTOCOL HTTP answer without a valid messageId'],
          [JSON.stringify({ messageId: 'x'.repeat(129) }), 'PROTOCOL HTTP answer without a valid messageId'],
          ['<html>intranet home</html>', 'PROTOCOL HTTP answer not JSON'],
        ]) {
          provider.answer = answer;
          const smsId = await saveSms('sms-banner', { phoneNumbers: ['+8613800138000'], content: 'Banner' });
          expect(await settled('sms-banner', smsId)).toMatchObject({
            status: 'FAILED',
            retryCount: 3,
            errorMessage: reason,
            providerMessageId: null,
          });
        }
      } finally {
        provider.answer = undefined;
      }
      expect(await stored('sms-banner', 'sms-package', 'pkgB')).toMatchObject({ usedCount: 0 });
    });

    describe('destinations and the secret', () => {
      /** May read and edit SMS configurations, nothing else. */
      const editor = (tenantId: string): Claims => ({
        tenantId,
        sub: 'editor',
        roles: [],
        permissions: ['message-sms-config:read', 'message-sms-config:update'],
      });
      const storedSecret = async (tenantId: string) =>
        (
          await t.dataSource
            .getRepository(SmsConfig)
            .createQueryBuilder('c')
            .addSelect('c.accessKeySecret')
            .where({ tenantId, smsConfigId: 'smsCfg' })
            .getOneOrFail()
        ).accessKeySecret;
      const resolver = () => t.app.get(DeliveryResolver) as TestResolver;

      it('an endpoint on an internal host nobody allowed is refused on save and on update, with nothing written', async () => {
        const hosts = ['127.0.0.3', '10.0.0.5', '169.254.169.254', '100.64.0.1', '[::1]', '[fd00::1]', '[fe80::1]', '[::ffff:127.0.0.1]'];
        // special-purpose ranges a library would call public unicast: local-use NAT64 of the metadata address, benchmarking
        hosts.push('[64:ff9b:1::a9fe:a9fe]', '198.18.0.1', '[::7f00:1]');
        for (const host of hosts) {
          const body = {
            name: 'x',
            provider: 'http',
            endpoint: `http://${host}:8080/sms`,
            accessKeyId: 'k',
            accessKeySecret: SECRET,
            enabled: true,
          };
          const answer = await t.post(`${M}/sms-config/save`, body, admin('sms-internal'));
          expect({ host, status: answer.status, error: answer.error }).toEqual({
            host,
            status: 400,
            error: expect.stringMatching(/^endpoint must resolve to public addresses only/),
          });
        }
        expect(await t.post(`${M}/sms-config/count`, {}, admin('sms-internal'))).toMatchObject({ data: 0 });
        await tenantWith('sms-internal', []);
        const moved = { smsConfigId: 'smsCfg', endpoint: 'http://127.0.0.3:8080/sms' };
        expect(await t.put(`${M}/sms-config/updateById`, moved, editor('sms-internal'))).toMatchObject({ status: 400 });
        expect((await stored('sms-internal', 'sms-config', 'smsCfg')).endpoint).toBe(provider.endpoint);
        expect(await storedSecret('sms-internal')).toBe(SECRET);
      });

      it('an endpoint that is internal when the SMS goes fails at once with ADDRESS_NOT_ALLOWED; no request, units given back', async () => {
        const internal = await startSmsProvider('127.0.0.3');
        try {
          await tenantWith('sms-rebound', [{ smsPackageId: 'pkgR', totalCount: 10 }]);
          await t.dataSource
            .getRepository(SmsConfig)
            .update({ tenantId: 'sms-rebound', smsConfigId: 'smsCfg' }, { endpoint: internal.endpoint });
          const smsId = await saveSms('sms-rebound', { phoneNumbers: ['+8613800138000'], content: 'Rebound' });
          expect(await settled('sms-rebound', smsId)).toMatchObject({
            status: 'FAILED',
            retryCount: 1,
            errorMessage: 'ADDRESS_NOT_ALLOWED',
          });
          expect(internal.requests).toEqual([]);
          expect(await stored('sms-rebound', 'sms-package', 'pkgR')).toMatchObject({ usedCount: 0 });
        } finally {
          await internal.close();
        }
      });

      it("an editor who changes the endpoint without the secret clears it: nothing signed reaches the editor's endpoint", async () => {
        const other = await startSmsProvider('127.0.0.2');
        try {
          await tenantWith('sms-moved', [{ smsPackageId: 'pkgM', totalCount: 10 }]);
          const moved = { smsConfigId: 'smsCfg', endpoint: other.endpoint };
          expect(await t.put(`${M}/sms-config/updateById`, moved, editor('sms-moved'))).toMatchObject({ status: 200, data: true });
          expect(await storedSecret('sms-moved')).toBe('');
          const smsId = await saveSms('sms-moved', { phoneNumbers: ['+8613800138000'], content: 'Moved' });
          expect(await settled('sms-moved', smsId)).toMatchObject({
            status: 'FAILED',
            retryCount: 1,
            errorMessage: 'SMS configuration smsCfg has no access key secret',
          });
          expect(other.requests).toEqual([]);

          // the same endpoint again, or another field, keeps the secret; the change with the secret is the editor's to make
          expect(await t.put(`${M}/sms-config/updateById`, { ...moved, accessKeySecret: SECRET }, editor('sms-moved'))).toMatchObject({
            data: true,
          });
          expect(await t.put(`${M}/sms-config/updateById`, { ...moved, signName: 'Other' }, editor('sms-moved'))).toMatchObject({
            data: true,
          });
          expect(await storedSecret('sms-moved')).toBe(SECRET);
          const second = await saveSms('sms-moved', { phoneNumbers: ['+8613800138000'], content: 'Moved again' });
          expect(await settled('sms-moved', second)).toMatchObject({ status: 'SENT' });
          expect(other.requests).toHaveLength(1);
        } finally {
          await other.close();
        }
      });

      it('each field that binds the secret clears it when it changes without one, and nothing is signed with the old one; with one, that one is kept; the same value again keeps it', async () => {
        const tenantId = 'sms-bound';
        await tenantWith(tenantId, [{ smsPackageId: 'pkgBound', totalCount: 10 }]);
        const update = (changes: Record<string, unknown>) =>
          t.put(`${M}/sms-config/updateById`, { smsConfigId: 'smsCfg', ...changes }, editor(tenantId));
        const original = { provider: 'http', endpoint: provider.endpoint, accessKeyId: `key-${tenantId}` };
        const changed: Record<string, unknown> = {
          provider: 'aliyun',
          endpoint: `${provider.endpoint}?account=other`,
          accessKeyId: 'key-other',
        };
        // the documented list is the one the rule applies
        expect(Object.keys(changed).sort()).toEqual([...SECRET_BOUND_FIELDS].sort());
        const description = (await t.http().get('/main-service/v3/api-docs')).body.paths[`${M}/sms-config/updateById`].put.description;
        for (const field of SECRET_BOUND_FIELDS) expect(description).toContain(field);
        expect(description).toMatch(/clears the stored accessKeySecret/);

        const requests = provider.requests.length;
        for (const [field, value] of Object.entries(changed)) {
          expect(await update({ [field]: original[field as keyof typeof original] })).toMatchObject({ data: true });
          expect({ field, same: await storedSecret(tenantId) }).toEqual({ field, same: SECRET });

          expect(await update({ [field]: value })).toMatchObject({ data: true });
          expect({ field, changed: await storedSecret(tenantId) }).toEqual({ field, changed: '' });
          const smsId = await saveSms(tenantId, { phoneNumbers: ['+8613800138000'], content: `After ${field}` });
          expect(await settled(tenantId, smsId)).toMatchObject({ status: 'FAILED', retryCount: 1 });

          expect(await update({ ...original, accessKeySecret: SECRET })).toMatchObject({ data: true });
          expect(await update({ [field]: value, accessKeySecret: `${SECRET}-${field}` })).toMatchObject({ data: true });
          expect({ field, given: await storedSecret(tenantId) }).toEqual({ field, given: `${SECRET}-${field}` });
          expect(await update({ ...original, accessKeySecret: SECRET })).toMatchObject({ data: true });
        }
        expect(provider.requests.length).toBe(requests);
        expect(await stored(tenantId, 'sms-package', 'pkgBound')).toMatchObject({ usedCount: 0 });
      });

      it('the connection goes to the address that was checked; the Host header keeps the endpoint name', async () => {
        const named = await startSmsProvider('127.0.0.2');
        resolver().names.set('localhost', ['127.0.0.2']);
        try {
          await tenantWith('sms-named', [{ smsPackageId: 'pkgN', totalCount: 10 }]);
          const endpoint = `http://localhost:${named.port}/sms/send?account=a1`;
          expect(
            await t.put(`${M}/sms-config/updateById`, { smsConfigId: 'smsCfg', endpoint, accessKeySecret: SECRET }, admin('sms-named')),
          ).toMatchObject({
            data: true,
          });
          const smsId = await saveSms('sms-named', { phoneNumbers: ['+8613800138000'], content: 'Named' });
          expect(await settled('sms-named', smsId)).toMatchObject({ status: 'SENT' });
          const [request] = named.requests;
          expect(request).toMatchObject({ url: '/sms/send?account=a1' });
          expect(request.headers.host).toBe(`localhost:${named.port}`);
          expect(request.headers['x-signature']).toBe(expectedSignature(request, SECRET));
        } finally {
          resolver().names.set('localhost', ['127.0.0.1']);
          await named.close();
        }
      });
    });

    it('counts SMS attempts on /metrics', async () => {
      const text = (await t.http().get('/main-service/metrics')).text;
      expect(text).toMatch(/messages_sent_total\{channel="sms",outcome="sent"\} [1-9]/);
      expect(text).toMatch(/messages_sent_total\{channel="sms",outcome="failed"\} [1-9]/);
      expect(text).toMatch(/messages_pending\{channel="sms"\} 0/);
    });
  });
});
