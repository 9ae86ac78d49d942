/**
 * E-mail delivery against a real SMTP server started here (smtp-server): a PENDING e-mail is sent with its
 * sender, recipients, subject and body (or its template's, rendered), over the tenant's configuration and
 * its write-only password, and marked SENT; a server that refuses leads to retries, then FAILED with the
 * reply's code; a server that is down and comes back leads to SENT. The sinks listen on loopback addresses,
 * which DELIVERY_ALLOWED_HOSTS allows (127.0.0.1 and 127.0.0.2; 127.0.0.3 stands for an internal address
 * nobody allowed). Short backoff and polling via the DISPATCH_* knobs.
 */
import { DeliveryResolver } from '../../../apps/main-service/src/message/delivery/address-guard';
import { MessageDelivery } from '../../../apps/main-service/src/message/delivery/message-delivery.entity';
import { Email } from '../../../apps/main-service/src/message/email/email.entity';
import { EmailConfig, PASSWORD_BOUND_FIELDS } from '../../../apps/main-service/src/message/email-config/email-config.entity';
import { freePort, SmtpSink, startSmtpSink, waitFor } from '../../support/delivery-sinks';
import { startApp, TestApp } from '../../support/test-app';
import { TestResolver } from '../../support/test-resolver';
import { Claims } from '../../support/tokens';

const M = '/main-service/system-api/message';
const DISPATCH = {
  DISPATCH_ENABLED: 'true',
  DISPATCH_POLL_MS: '20',
  DISPATCH_RETRY_BASE_MS: '20',
  DISPATCH_MAX_RETRIES: '3',
  DELIVERY_ALLOWED_HOSTS: '127.0.0.1,127.0.0.2',
};
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
      // the sinks offer no STARTTLS
      allowCleartextLogin: true,
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

  /**
   * In the calling describe, the helpers above talk to an app of its own whose retries back off from `retryBaseMs`
   * over 10 attempts (the group's app again afterwards); returns that app.
   */
  function appWithRetries(retryBaseMs: number): () => TestApp {
    let own: TestApp;
    beforeAll(async () => {
      app = own = await startApp({ ...DISPATCH, DISPATCH_RETRY_BASE_MS: String(retryBaseMs), DISPATCH_MAX_RETRIES: '10' });
    });
    afterAll(async () => {
      app = t;
      await own?.close();
    });
    return () => own;
  }

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

      // the status change is the dispatcher's, recorded as background work: who, not whose record
      const history = await t.post(`${M}/email/historyPage`, { recordId: emailId, current: 1, pageSize: 10 }, admin('mail-ok'));
      const [sent, created] = history.data as { action: string; username: string; requestId: unknown; changes: { field: string }[] }[];
      expect(created).toMatchObject({ action: 'CREATE', username: 'admin', requestId: expect.any(String) });
      expect(sent).toMatchObject({ action: 'UPDATE', username: 'system', requestId: null });
      expect(sent.changes.map((change) => change.field)).toEqual(expect.arrayContaining(['status', 'retryCount', 'sendTime']));
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
      // the reply's code, not its text (a server's text is not ours to store)
      expect(email).toMatchObject({ status: 'FAILED', retryCount: 3, sendTime: null, errorMessage: 'REJECTED SMTP 550' });
      expect(sink.refusals.get('nobody@example.com')).toBe(3);
    });

    it('a wrong password fails without the password in errorMessage', async () => {
      await saveConfig('mail-badlogin', sink.port, { password: 'wrong-Secret-42' });
      const emailId = await saveEmail('mail-badlogin', { toAddresses: ['frank@example.com'], subject: 'Bad login', content: 'x' });
      const email = await settled('mail-badlogin', emailId);
      expect(email).toMatchObject({ status: 'FAILED', errorMessage: 'AUTH SMTP 535' });
      expect(sink.received.some((m) => m.subject === 'Bad login')).toBe(false);
    });

    it('a server that echoes the login in its 535 reply: errorMessage keeps the code only, no password in any form', async () => {
      const password = 'echoed-Secret-77';
      await saveConfig('mail-echo', sink.port, { password });
      sink.echoAuth = true;
      try {
        const emailId = await saveEmail('mail-echo', { toAddresses: ['frank@example.com'], subject: 'Echo', content: 'x' });
        const email = await settled('mail-echo', emailId);
        expect(email).toMatchObject({ status: 'FAILED', errorMessage: 'AUTH SMTP 535' });
        for (const form of [password, Buffer.from(password).toString('base64'), Buffer.from(`\0mailer\0${password}`).toString('base64')])
          expect(email.errorMessage).not.toContain(form);
      } finally {
        sink.echoAuth = false;
      }
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

  describe('credentials and destinations', () => {
    /** May read and edit e-mail configurations, nothing else (no create, no e-mail). */
    const editor = (tenantId: string): Claims => ({
      tenantId,
      sub: 'editor',
      roles: [],
      permissions: ['message-email-config:read', 'message-email-config:update'],
    });
    const storedPassword = async (tenantId: string, emailConfigId: string) =>
      (
        await t.dataSource
          .getRepository(EmailConfig)
          .createQueryBuilder('c')
          .addSelect('c.password')
          .where({ tenantId, emailConfigId })
          .getOneOrFail()
      ).password;
    const resolver = () => t.app.get(DeliveryResolver) as TestResolver;

    it('a login is never sent in clear: a server without STARTTLS gets no AUTH unless the configuration allows cleartext', async () => {
      await saveConfig('mail-tls', sink.port, { allowCleartextLogin: false });
      const attempts = sink.authAttempts;
      const emailId = await saveEmail('mail-tls', { toAddresses: ['ivy@example.com'], subject: 'Needs TLS', content: 'x' });
      const email = await settled('mail-tls', emailId);
      expect(email).toMatchObject({ status: 'FAILED', retryCount: 3 });
      expect(email.errorMessage).toMatch(/^TLS( SMTP \d{3})?$/);
      expect(sink.authAttempts).toBe(attempts);
      expect(sink.received.some((m) => m.subject === 'Needs TLS')).toBe(false);
    });

    it("an editor who moves the configuration without the password clears it: the password never reaches the editor's server", async () => {
      const emailConfigId = await saveConfig('mail-moved', sink.port);
      const other = await startSmtpSink({ host: '127.0.0.2', credentials: { username: 'mailer', password: PASSWORD } });
      try {
        const moved = { emailConfigId, host: '127.0.0.2', port: other.port };
        expect(await t.put(`${M}/email-config/updateById`, moved, editor('mail-moved'))).toMatchObject({ status: 200, data: true });
        expect(await storedPassword('mail-moved', emailConfigId)).toBeNull();
        const emailId = await saveEmail('mail-moved', { toAddresses: ['judy@example.com'], subject: 'Moved', content: 'x' });
        expect(await settled('mail-moved', emailId)).toMatchObject({
          status: 'FAILED',
          retryCount: 1,
          errorMessage: `e-mail configuration ${emailConfigId} has a username but no password`,
        });
        expect(other.authAttempts).toBe(0);

        // the same change with the password: it is the editor's to give
        const withPassword = { ...moved, password: PASSWORD };
        expect(await t.put(`${M}/email-config/updateById`, withPassword, editor('mail-moved'))).toMatchObject({ data: true });
        const second = await saveEmail('mail-moved', { toAddresses: ['judy@example.com'], subject: 'Moved again', content: 'x' });
        expect(await settled('mail-moved', second)).toMatchObject({ status: 'SENT' });
        expect(other.received.find((m) => m.subject === 'Moved again')?.auth).toEqual({ username: 'mailer', password: PASSWORD });
      } finally {
        await other.close();
      }
    });

    it('each field that binds the password clears it when it changes without one, and the next e-mail sends no password; with one, that one is kept; the same value again, or another field, keeps it', async () => {
      const tenantId = 'mail-bound';
      const emailConfigId = await saveConfig(tenantId, sink.port);
      const update = (changes: Record<string, unknown>) =>
        t.put(`${M}/email-config/updateById`, { emailConfigId, ...changes }, editor(tenantId));
      const original = {
        host: '127.0.0.1',
        port: sink.port,
        secure: false,
        username: 'mailer',
        allowCleartextLogin: true,
        fromAddress: 'noreply@example.com',
        allowAnyFromAddress: false,
      };
      const changed: Record<string, unknown> = {
        host: '127.0.0.2',
        port: 2525,
        secure: true,
        username: 'someone-else',
        allowCleartextLogin: false,
        fromAddress: 'noreply@elsewhere.example',
        allowAnyFromAddress: true,
      };
      // the documented list is the one the rule applies
      expect(Object.keys(changed).sort()).toEqual([...PASSWORD_BOUND_FIELDS].sort());
      const description = (await t.http().get('/main-service/v3/api-docs')).body.paths[`${M}/email-config/updateById`].put.description;
      for (const field of PASSWORD_BOUND_FIELDS) expect(description).toContain(field);
      expect(description).toMatch(/clears the stored password/);

      expect(await update({ name: 'relay 2', remark: 'renamed', fromName: 'Other Office', enabled: true })).toMatchObject({ data: true });
      expect(await storedPassword(tenantId, emailConfigId)).toBe(PASSWORD);
      for (const [field, value] of Object.entries(changed)) {
        expect(await update({ [field]: original[field as keyof typeof original] })).toMatchObject({ data: true });
        expect({ field, same: await storedPassword(tenantId, emailConfigId) }).toEqual({ field, same: PASSWORD });

        expect(await update({ [field]: value })).toMatchObject({ data: true });
        expect({ field, changed: await storedPassword(tenantId, emailConfigId) }).toEqual({ field, changed: null });
        const logins = sink.authAttempts;
        const fromAddress = field === 'fromAddress' ? value : original.fromAddress;
        const emailId = await saveEmail(tenantId, {
          fromAddress,
          toAddresses: ['judy@example.com'],
          subject: `After ${field}`,
          content: 'x',
        });
        expect(await settled(tenantId, emailId)).toMatchObject({
          status: 'FAILED',
          retryCount: 1,
          errorMessage: `e-mail configuration ${emailConfigId} has a username but no password`,
        });
        expect({ field, logins: sink.authAttempts }).toEqual({ field, logins });

        expect(await update({ ...original, password: PASSWORD })).toMatchObject({ data: true });
        expect(await update({ [field]: value, password: `${PASSWORD}-${field}` })).toMatchObject({ data: true });
        expect({ field, given: await storedPassword(tenantId, emailConfigId) }).toEqual({ field, given: `${PASSWORD}-${field}` });
        expect(await update({ ...original, password: PASSWORD })).toMatchObject({ data: true });
      }
      expect(sink.received.filter((m) => m.subject.startsWith('After '))).toEqual([]);
    });

    it('a save with the id of a stored configuration changes nothing, its password included', async () => {
      const emailConfigId = await saveConfig('mail-resave', sink.port);
      const answer = await t.post(
        `${M}/email-config/save`,
        {
          emailConfigId,
          name: 'x',
          host: '127.0.0.2',
          port: 2525,
          allowCleartextLogin: true,
          fromAddress: 'noreply@example.com',
          enabled: true,
        },
        admin('mail-resave'),
      );
      expect(answer).toMatchObject({ status: 422, data: null });
      expect((await t.get(`${M}/email-config/getById?id=${emailConfigId}`, admin('mail-resave'))).data).toMatchObject({
        host: '127.0.0.1',
        revision: 1,
      });
      expect(await storedPassword('mail-resave', emailConfigId)).toBe(PASSWORD);
    });

    it('an internal host nobody allowed is refused on save and on update, with nothing written and nothing contacted', async () => {
      const internal = ['127.0.0.3', '10.0.0.5', '172.16.0.1', '192.168.1.10', '169.254.169.254', '100.64.0.1', '0.0.0.0', '198.18.0.1'];
      const internal6 = ['::1', 'fe80::1', 'fd00::1', '::', '::ffff:127.0.0.1', '::ffff:10.0.0.1'];
      // special-purpose ranges a library would call public unicast: local-use NAT64, IPv4-compatible, site-local, discard, benchmarking
      const special6 = ['64:ff9b:1::a00:1', '::7f00:1', 'fec0::1', '100::1', '2001:2::1'];
      for (const host of [...internal, ...internal6, ...special6]) {
        const answer = await t.post(
          `${M}/email-config/save`,
          { name: 'x', host, port: 25, fromAddress: 'noreply@example.com', enabled: true },
          admin('mail-internal'),
        );
        expect({ host, status: answer.status, error: answer.error }).toEqual({
          host,
          status: 400,
          error: expect.stringMatching(/^host must resolve to public addresses only/),
        });
      }
      expect(await t.post(`${M}/email-config/count`, {}, admin('mail-internal'))).toMatchObject({ data: 0 });

      const emailConfigId = await saveConfig('mail-internal', sink.port);
      expect(await t.put(`${M}/email-config/updateById`, { emailConfigId, host: '127.0.0.3' }, editor('mail-internal'))).toMatchObject({
        status: 400,
      });
      // a name is judged by its addresses
      resolver().names.set('intranet.example', ['10.1.2.3']);
      expect(
        await t.put(`${M}/email-config/updateById`, { emailConfigId, host: 'intranet.example' }, editor('mail-internal')),
      ).toMatchObject({
        status: 400,
      });
      expect((await t.get(`${M}/email-config/getById?id=${emailConfigId}`, admin('mail-internal'))).data).toMatchObject({
        host: '127.0.0.1',
        revision: 1,
      });
      expect(await storedPassword('mail-internal', emailConfigId)).toBe(PASSWORD);
    });

    it('a host that is internal when the e-mail goes fails at once with ADDRESS_NOT_ALLOWED; nothing is sent there', async () => {
      const internal = await startSmtpSink({ host: '127.0.0.3' });
      try {
        const emailConfigId = await saveConfig('mail-rebound', internal.port, { username: null, password: null });
        // stored while allowed (or written by hand): the send checks again
        await t.dataSource.getRepository(EmailConfig).update({ tenantId: 'mail-rebound', emailConfigId }, { host: '127.0.0.3' });
        const emailId = await saveEmail('mail-rebound', { toAddresses: ['kim@example.com'], subject: 'Rebound', content: 'x' });
        expect(await settled('mail-rebound', emailId)).toMatchObject({
          status: 'FAILED',
          retryCount: 1,
          errorMessage: 'ADDRESS_NOT_ALLOWED',
        });
        expect(internal.received).toEqual([]);
      } finally {
        await internal.close();
      }
    });

    it('a host name is looked up once per attempt and the connection goes to the address that was checked', async () => {
      const relay = await startSmtpSink({ host: '127.0.0.2' });
      try {
        resolver().names.set('relay.example', ['127.0.0.2']);
        await saveConfig('mail-named', relay.port, { host: 'relay.example', username: null, password: null });
        const asked = resolver().asked.length;
        const emailId = await saveEmail('mail-named', { toAddresses: ['leo@example.com'], subject: 'Named', content: 'x' });
        expect(await settled('mail-named', emailId)).toMatchObject({ status: 'SENT' });
        expect(relay.received.map((m) => m.subject)).toEqual(['Named']);
        expect(resolver().asked.slice(asked)).toEqual(['relay.example']);
      } finally {
        await relay.close();
      }
    });

    it('over TLS the configured name is the server name (SNI) and the certificate is checked against it: an untrusted one fails as TLS', async () => {
      const smtps = await startSmtpSink({ host: '127.0.0.2', tls: true });
      try {
        resolver().names.set('smtps.example', ['127.0.0.2']);
        await saveConfig('mail-smtps', smtps.port, { host: 'smtps.example', secure: true, username: null, password: null });
        const emailId = await saveEmail('mail-smtps', { toAddresses: ['mia@example.com'], subject: 'Over TLS', content: 'x' });
        const email = await settled('mail-smtps', emailId);
        expect(email).toMatchObject({ status: 'FAILED', retryCount: 3 });
        expect(email.errorMessage).toMatch(/^TLS [A-Z_]+$/);
        expect(new Set(smtps.serverNames)).toEqual(new Set(['smtps.example']));
        expect(smtps.received).toEqual([]);
      } finally {
        await smtps.close();
      }
    });
  });

  describe('a message deleted while it backs off', () => {
    // a backoff long enough that the deletion below lands between two attempts, not during one, however slow the machine
    const backingOff = appWithRetries(3000);

    it('a message deleted while it backs off is not sent, and its bookkeeping goes', async () => {
      const port = await freePort();
      await saveConfig('mail-gone', port);
      const emailId = await saveEmail('mail-gone', { toAddresses: ['ivan@example.com'], subject: 'Withdrawn', content: 'x' });
      await waitFor(
        () => stored('mail-gone', emailId),
        (e) => e.retryCount >= 1,
        'a failed first attempt',
      );
      const bookkeeping = () =>
        backingOff().dataSource.getRepository(MessageDelivery).countBy({ tenantId: 'mail-gone', messageId: emailId });
      expect(await bookkeeping()).toBe(1);
      expect(await backingOff().del(`${M}/email/removeById?id=${emailId}`, admin('mail-gone'))).toMatchObject({ data: true });
      const late = await startSmtpSink({ port });
      try {
        await waitFor(bookkeeping, (n) => n === 0, 'the bookkeeping row to go');
        expect(late.received).toEqual([]);
      } finally {
        await late.close();
      }
    });
  });

  describe('a server that is down and comes back', () => {
    // backoff from 200 ms over 10 attempts: the server below is up long before the attempts run out
    appWithRetries(200);

    it('the message is retried and SENT', async () => {
      const port = await freePort();
      await saveConfig('mail-down', port);
      const emailId = await saveEmail('mail-down', { toAddresses: ['grace@example.com'], subject: 'Eventually', content: 'x' });
      const waiting = await waitFor(
        () => stored('mail-down', emailId),
        (e) => e.retryCount >= 1,
        'a failed first attempt',
      );
      expect(waiting).toMatchObject({ status: 'PENDING', errorMessage: 'CONNECT ECONNREFUSED' });
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
