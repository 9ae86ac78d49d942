/**
 * E-mail delivery against a real SMTP server started here (smtp-server): a PENDING e-mail is sent with its
 * sender, recipients, subject and body (or its template's, rendered), over the tenant's configuration and
 * its write-only password, and marked SENT; a server that refuses leads to retries, then FAILED with the
 * reply; a server that is down and comes back leads to SENT. Short backoff and polling via the DISPATCH_* knobs.
 */
import { MessageDelivery } from '../../../apps/main-service/src/message/delivery/message-delivery.entity';
import { Email } from '../../../apps/main-service/src/message/email/email.entity';
import { freePort, SmtpSink, startSmtpSink, waitFor } from './delivery-sinks';
import { startApp, TestApp } from '../../support/test-app';
import { Claims } from '../../support/tokens';

const M = '/main-service/system-api/message';
const DISPATCH = { DISPATCH_ENABLED: 'true', DISPATCH_POLL_MS: '20', DISPATCH_RETRY_BASE_MS: '20', DISPATCH_MAX_RETRIES: '3' };
const PASSWORD = 'smtp-Pa55word!';

describe('e-mail delivery', () => {
  let t: TestApp;
  /** The app the helpers below talk to. */
  let app: TestApp;
  let sink: SmtpSink;

  const admin = (tenantId: string): Claims => ({ tenantId, sub: 'admin' });

  async function saveConfig(tenantId: string, port: number, extra: Record<string, unknown> = {}): Promise<string> {
    const emailConfigId = `cfg${tenantId.replace(/[^0-9A-Za-z]/g, '')}`;
    const body = {
      emailConfigId,
      name: 'relay',
      host: '127.0.0.1',
      port,
      secure: false,
      username: 'mailer',
      password: PASSWORD,
      fromAddress: 'noreply@example.com',
      fromName: 'Example Office',
      enabled: true,
      ...extra,
    };
    expect(await app.post(`${M}/email-config/save`, body, admin(tenantId))).toMatchObject({ status: 200, data: true });
    return emailConfigId;
  }

  async function saveEmail(tenantId: string, body: Record<string, unknown>): Promise<string> {
    const emailId = `em${Math.random().toString(36).slice(2, 12)}`;
    expect(await app.post(`${M}/email/save`, { emailId, fromAddress: 'noreply@example.com', ...body }, admin(tenantId))).toMatchObject({
      status: 200,
      data: true,
    });
    return emailId;
  }

  const stored = async (tenantId: string, emailId: string) => (await app.get(`${M}/email/getById?id=${emailId}`, admin(tenantId))).data;
  const settled = (tenantId: string, emailId: string) =>
    waitFor(
      () => stored(tenantId, emailId),
      (e) => e.status !== 'PENDING',
      `e-mail ${emailId} to settle`,
    );

  beforeAll(async () => {
    sink = await startSmtpSink({ credentials: { username: 'mailer', password: PASSWORD } });
    t = await startApp(DISPATCH);
    app = t;
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  describe('e-mail over SMTP', () => {
    it('arrives with its sender, recipients, subject and body, sent with the configured login, and is SENT', async () => {
      await saveConfig('mail-ok', sink.port);
      const before = Date.now();
      const emailId = await saveEmail('mail-ok', {
        toAddresses: ['alice@example.com', 'bob@example.com'],
        ccAddresses: ['carol@example.com'],
        bccAddresses: ['audit@example.com'],
        subject: 'Reset your password',
        content: 'Hello Alice, follow the link.',
      });
      const email = await settled('mail-ok', emailId);
      expect(email).toMatchObject({ status: 'SENT', retryCount: 1, errorMessage: null, revision: 2 });
      expect(email.sendTime).toBeGreaterThanOrEqual(before);

      const mail = sink.received.find((m) => m.subject === 'Reset your password')!;
      expect(mail).toMatchObject({
        mailFrom: 'noreply@example.com',
        from: 'noreply@example.com',
        to: ['alice@example.com', 'bob@example.com'],
        cc: ['carol@example.com'],
        text: 'Hello Alice, follow the link.',
        html: false,
        auth: { username: 'mailer', password: PASSWORD },
      });
      expect(mail.rcptTo.sort()).toEqual(['alice@example.com', 'audit@example.com', 'bob@example.com', 'carol@example.com']);
    });

    it('an HTML body goes as HTML', async () => {
      await saveConfig('mail-html', sink.port);
      const emailId = await saveEmail('mail-html', {
        toAddresses: ['dave@example.com'],
        subject: 'Weekly report',
        content: '<p>Totals: <b>42</b></p>',
      });
      expect(await settled('mail-html', emailId)).toMatchObject({ status: 'SENT' });
      expect(sink.received.find((m) => m.subject === 'Weekly report')!.html).toBe('<p>Totals: <b>42</b></p>');
    });

    it('a record with a template and no subject or content is rendered from the template', async () => {
      await saveConfig('mail-tpl', sink.port);
      const tenantId = 'mail-tpl';
      const template = {
        code: 'welcome',
        name: 'Welcome',
        subject: 'Welcome aboard',
        content: '<h1>Welcome</h1><p>We are glad{{unknown}}.</p>',
        contentType: 'html',
        enabled: true,
      };
      expect(await t.post(`${M}/email-template/save`, { emailTemplateId: 'tplWelcome', ...template }, admin(tenantId))).toMatchObject({
        data: true,
      });
      // subject and content are required by the API: a producer writing rows directly may leave them empty
      await t.dataSource.getRepository(Email).insert({
        tenantId,
        emailId: 'emTemplated',
        emailTemplateId: 'tplWelcome',
        fromAddress: 'noreply@example.com',
        toAddresses: ['erin@example.com'],
        subject: '',
        content: '',
        status: 'PENDING',
        retryCount: 0,
        revision: 1,
        createdUsername: 'producer',
        createdTime: Date.now(),
        lastModifiedUsername: 'producer',
        lastModifiedTime: Date.now(),
      } as Partial<Email>);
      expect(await settled(tenantId, 'emTemplated')).toMatchObject({ status: 'SENT', subject: '', content: '' });
      const mail = sink.received.find((m) => m.subject === 'Welcome aboard')!;
      expect(mail.html).toBe('<h1>Welcome</h1><p>We are glad.</p>');
      expect(mail.to).toEqual(['erin@example.com']);
    });

    it('a server that refuses (5xx) leads to retries and then FAILED with its reply', async () => {
      await saveConfig('mail-refused', sink.port);
      sink.refuse.add('nobody@example.com');
      const emailId = await saveEmail('mail-refused', { toAddresses: ['nobody@example.com'], subject: 'Refused', content: 'x' });
      const email = await settled('mail-refused', emailId);
      expect(email).toMatchObject({ status: 'FAILED', retryCount: 3, sendTime: null });
      expect(email.errorMessage).toContain('550');
      expect(email.errorMessage).toContain('mailbox unavailable');
      expect(sink.refusals.get('nobody@example.com')).toBe(3);
    });

    it('a wrong password fails without the password in errorMessage', async () => {
      await saveConfig('mail-badlogin', sink.port, { password: 'wrong-Secret-42' });
      const emailId = await saveEmail('mail-badlogin', { toAddresses: ['frank@example.com'], subject: 'Bad login', content: 'x' });
      const email = await settled('mail-badlogin', emailId);
      expect(email.status).toBe('FAILED');
      expect(email.errorMessage).toContain('535');
      expect(email.errorMessage).not.toContain('wrong-Secret-42');
      expect(sink.received.some((m) => m.subject === 'Bad login')).toBe(false);
    });

    it('without an enabled configuration the e-mail FAILS at once', async () => {
      await saveConfig('mail-off', sink.port, { enabled: false });
      const emailId = await saveEmail('mail-off', { toAddresses: ['heidi@example.com'], subject: 'No config', content: 'x' });
      expect(await settled('mail-off', emailId)).toMatchObject({
        status: 'FAILED',
        retryCount: 1,
        errorMessage: 'no enabled e-mail configuration',
      });
    });

    it('counts attempts on /metrics by channel and outcome, and the pending messages', async () => {
      const text = (await t.http().get('/main-service/metrics')).text;
      expect(text).toMatch(/messages_sent_total\{channel="email",outcome="sent"\} [1-9]/);
      expect(text).toMatch(/messages_sent_total\{channel="email",outcome="retry"\} [1-9]/);
      expect(text).toMatch(/messages_sent_total\{channel="email",outcome="failed"\} [1-9]/);
      expect(text).toMatch(/messages_pending\{channel="email"\} 0/);
    });
  });

  describe('a server that is down and comes back', () => {
    // backoff from 200 ms over 10 attempts: the server below is up long before the attempts run out
    let slow: TestApp;
    beforeAll(async () => {
      slow = await startApp({ ...DISPATCH, DISPATCH_RETRY_BASE_MS: '200', DISPATCH_MAX_RETRIES: '10' });
      app = slow;
    });
    afterAll(async () => {
      app = t;
      await slow?.close();
    });

    it('a message deleted while it backs off is not sent, and its bookkeeping goes', async () => {
      const port = await freePort();
      await saveConfig('mail-gone', port);
      const emailId = await saveEmail('mail-gone', { toAddresses: ['ivan@example.com'], subject: 'Withdrawn', content: 'x' });
      await waitFor(
        () => stored('mail-gone', emailId),
        (e) => e.retryCount >= 1,
        'a failed first attempt',
      );
      const bookkeeping = () => slow.dataSource.getRepository(MessageDelivery).countBy({ tenantId: 'mail-gone', messageId: emailId });
      expect(await bookkeeping()).toBe(1);
      expect(await slow.del(`${M}/email/removeById?id=${emailId}`, admin('mail-gone'))).toMatchObject({ data: true });
      const late = await startSmtpSink({ port });
      try {
        await waitFor(bookkeeping, (n) => n === 0, 'the bookkeeping row to go');
        expect(late.received).toEqual([]);
      } finally {
        await late.close();
      }
    });

    it('the message is retried and SENT', async () => {
      const port = await freePort();
      await saveConfig('mail-down', port);
      const emailId = await saveEmail('mail-down', { toAddresses: ['grace@example.com'], subject: 'Eventually', content: 'x' });
      const waiting = await waitFor(
        () => stored('mail-down', emailId),
        (e) => e.retryCount >= 1,
        'a failed first attempt',
      );
      expect(waiting).toMatchObject({ status: 'PENDING', errorMessage: expect.stringMatching(/ECONNREFUSED/) });
      const late = await startSmtpSink({ port });
      try {
        const email = await settled('mail-down', emailId);
        expect(email).toMatchObject({ status: 'SENT', errorMessage: null });
        expect(email.retryCount).toBeGreaterThan(1);
        expect(late.received.map((m) => m.subject)).toEqual(['Eventually']);
      } finally {
        await late.close();
      }
    });
  });
});
