/**
 * The From address of an e-mail: its configuration's fromAddress or another address of that domain, unless
 * the configuration allows any (allowAnyFromAddress). Checked on save and updateById when the configuration
 * is known (the one the e-mail names, or the tenant's only enabled one): refused with the validation
 * envelope, nothing written; and again at send time: FAILED at once, nothing sent.
 */
import { Email } from '../../../apps/main-service/src/message/email/email.entity';
import { startApp, TestApp } from '../../support/test-app';
import { Claims } from '../../support/tokens';
import { SmtpSink, startSmtpSink, waitFor } from '../../support/delivery-sinks';

const M = '/main-service/system-api/message';
const DISPATCH = {
  DELIVERY_ALLOWED_HOSTS: '127.0.0.1',
  DISPATCH_ENABLED: 'true',
  DISPATCH_POLL_MS: '20',
  DISPATCH_RETRY_BASE_MS: '20',
  DISPATCH_MAX_RETRIES: '3',
};
const REFUSED = 'fromAddress must be an address of example.com: e-mail configuration relay allows no other sender';

describe('the From address of an e-mail', () => {
  let t: TestApp;
  let sink: SmtpSink;

  const admin = (tenantId: string): Claims => ({ tenantId, sub: 'admin' });

  async function saveConfig(tenantId: string, extra: Record<string, unknown> = {}): Promise<void> {
    const body = {
      emailConfigId: 'relay',
      name: 'relay',
      host: '127.0.0.1',
      port: sink.port,
      secure: false,
      fromAddress: 'noreply@example.com',
      enabled: true,
      ...extra,
    };
    expect(await t.post(`${M}/email-config/save`, body, admin(tenantId))).toMatchObject({ status: 200, data: true });
  }

  const saveEmail = (tenantId: string, emailId: string, extra: Record<string, unknown>) =>
    t.post(`${M}/email/save`, { emailId, toAddresses: ['alice@example.org'], subject: emailId, content: 'x', ...extra }, admin(tenantId));
  const stored = async (tenantId: string, emailId: string) => (await t.get(`${M}/email/getById?id=${emailId}`, admin(tenantId))).data;
  const settled = (tenantId: string, emailId: string) =>
    waitFor(
      () => stored(tenantId, emailId),
      (e) => e.status !== 'PENDING',
      `e-mail ${emailId} to settle`,
    );

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await startApp(DISPATCH);
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it("takes the configuration's address and other addresses of its domain (any case)", async () => {
    await saveConfig('from-ok');
    for (const [emailId, fromAddress] of [
      ['own', 'noreply@example.com'],
      ['billing', 'billing@example.com'],
      ['upper', 'Billing@EXAMPLE.com'],
    ])
      expect(await saveEmail('from-ok', emailId, { fromAddress })).toMatchObject({ status: 200, data: true });
    expect(await saveEmail('from-ok', 'named', { fromAddress: 'sales@example.com', emailConfigId: 'relay' })).toMatchObject({
      status: 200,
    });
    expect(await settled('from-ok', 'billing')).toMatchObject({ status: 'SENT' });
    expect(sink.received.find((m) => m.subject === 'billing')).toMatchObject({ mailFrom: 'billing@example.com' });
  });

  it('refuses another domain on save with the validation envelope, and stores nothing', async () => {
    await saveConfig('from-bad');
    for (const [emailId, extra] of [
      ['foreign', { fromAddress: 'ceo@bank.example' }],
      ['subdomain', { fromAddress: 'ceo@mail.example.com' }],
      ['namedForeign', { fromAddress: 'ceo@bank.example', emailConfigId: 'relay' }],
    ] as const) {
      expect(await saveEmail('from-bad', emailId, extra)).toMatchObject({ status: 400, error: REFUSED, data: null });
      expect(await stored('from-bad', emailId)).toBeNull();
    }
  });

  it('refuses an update to another domain, or to a configuration of another domain, and changes nothing', async () => {
    // both configurations disabled at first: the e-mail fails at once (no matter here), and nothing is checked on save
    await saveConfig('from-upd', { enabled: false });
    await saveConfig('from-upd', { emailConfigId: 'other', name: 'other', fromAddress: 'noreply@other.example', enabled: false });
    expect(await saveEmail('from-upd', 'edited', { fromAddress: 'noreply@example.com', emailConfigId: 'relay' })).toMatchObject({
      status: 200,
    });
    await settled('from-upd', 'edited');
    // a disabled configuration is not the one the e-mail will be sent with: nothing to check yet
    expect(await t.put(`${M}/email/updateById`, { emailId: 'edited', fromAddress: 'ceo@bank.example' }, admin('from-upd'))).toMatchObject({
      status: 200,
      data: true,
    });
    expect(
      await t.put(`${M}/email/updateById`, { emailId: 'edited', fromAddress: 'noreply@example.com' }, admin('from-upd')),
    ).toMatchObject({
      status: 200,
    });
    expect(await t.put(`${M}/email-config/updateById`, { emailConfigId: 'other', enabled: true }, admin('from-upd'))).toMatchObject({
      status: 200,
    });
    expect(await t.put(`${M}/email-config/updateById`, { emailConfigId: 'relay', enabled: true }, admin('from-upd'))).toMatchObject({
      status: 200,
    });
    const before = await stored('from-upd', 'edited');
    expect(await t.put(`${M}/email/updateById`, { emailId: 'edited', fromAddress: 'ceo@bank.example' }, admin('from-upd'))).toMatchObject({
      status: 400,
      error: REFUSED,
    });
    expect(await t.put(`${M}/email/updateById`, { emailId: 'edited', emailConfigId: 'other' }, admin('from-upd'))).toMatchObject({
      status: 400,
      error: 'fromAddress must be an address of other.example: e-mail configuration other allows no other sender',
    });
    const after = await stored('from-upd', 'edited');
    expect(after).toMatchObject({ fromAddress: 'noreply@example.com', emailConfigId: 'relay', revision: before.revision });
  });

  it('a configuration that allows any From address takes and sends any', async () => {
    await saveConfig('from-any', { allowAnyFromAddress: true });
    expect(await saveEmail('from-any', 'anyFrom', { fromAddress: 'ceo@bank.example' })).toMatchObject({ status: 200, data: true });
    expect(await settled('from-any', 'anyFrom')).toMatchObject({ status: 'SENT' });
    expect(sink.received.find((m) => m.subject === 'anyFrom')).toMatchObject({ mailFrom: 'ceo@bank.example' });
  });

  it('an e-mail whose From address its configuration does not allow FAILS at send time, unsent', async () => {
    await saveConfig('from-late');
    // a producer writing rows directly passes no save check
    await t.dataSource.getRepository(Email).insert({
      tenantId: 'from-late',
      emailId: 'direct',
      fromAddress: 'ceo@bank.example',
      toAddresses: ['alice@example.org'],
      subject: 'direct',
      content: 'x',
      status: 'PENDING',
      retryCount: 0,
      revision: 1,
      createdUsername: 'producer',
      createdTime: Date.now(),
      lastModifiedUsername: 'producer',
      lastModifiedTime: Date.now(),
    } as Partial<Email>);
    expect(await settled('from-late', 'direct')).toMatchObject({ status: 'FAILED', retryCount: 1, errorMessage: REFUSED });
    expect(sink.received.some((m) => m.subject === 'direct')).toBe(false);
  });
});
