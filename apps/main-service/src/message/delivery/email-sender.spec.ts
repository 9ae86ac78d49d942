import { EmailConfigWithPassword } from './delivery-records';
import { DeliveryFailure } from './delivery-failure';
import { smtpFailure, smtpOptions } from './email-sender';

const config = (o: Partial<EmailConfigWithPassword>) =>
  ({
    host: 'smtp.example.com',
    port: 587,
    secure: false,
    username: null,
    password: null,
    allowCleartextLogin: false,
    ...o,
  }) as EmailConfigWithPassword;

describe('smtpOptions', () => {
  it('connects to the checked address; SNI and the certificate check keep the configured name', () => {
    expect(smtpOptions(config({}), '8.8.8.8')).toMatchObject({ host: '8.8.8.8', servername: 'smtp.example.com', port: 587, secure: false });
    // an address as host: nothing to present but the address itself
    expect(smtpOptions(config({ host: '8.8.4.4' }), '8.8.4.4')).not.toHaveProperty('servername');
  });

  it('a login requires TLS (STARTTLS when not secure) unless the configuration accepts cleartext; no login, no requirement', () => {
    const login = { username: 'mailer', password: 'pw' };
    expect(smtpOptions(config(login), '8.8.8.8')).toMatchObject({ requireTLS: true, auth: { user: 'mailer', pass: 'pw' } });
    expect(smtpOptions(config({ ...login, allowCleartextLogin: true }), '8.8.8.8')).toMatchObject({ requireTLS: false });
    expect(smtpOptions(config({}), '8.8.8.8')).toMatchObject({ requireTLS: false, auth: undefined });
  });
});

describe('smtpFailure', () => {
  it('keeps the category and the reply or system code, never the text', () => {
    const error = (code: string, extra: Record<string, unknown> = {}) =>
      Object.assign(new Error('Invalid login: 535 5.7.8 Authentication failed for AUTH PLAIN AG1haWxlcgBodW50ZXIy'), { code, ...extra });
    const cases: [Error, string][] = [
      [error('EAUTH', { responseCode: 535 }), 'AUTH SMTP 535'],
      [error('ETLS', { responseCode: 502 }), 'TLS SMTP 502'],
      [error('ESOCKET', { originalCode: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), 'TLS DEPTH_ZERO_SELF_SIGNED_CERT'],
      [error('ESOCKET', { originalCode: 'ERR_TLS_CERT_ALTNAME_INVALID' }), 'TLS ERR_TLS_CERT_ALTNAME_INVALID'],
      [error('ETIMEDOUT'), 'TIMEOUT'],
      [error('ESOCKET', { originalCode: 'ECONNREFUSED' }), 'CONNECT ECONNREFUSED'],
      [error('ECONNECTION', { responseCode: 421 }), 'REJECTED SMTP 421'],
      [error('EENVELOPE', { responseCode: 550 }), 'REJECTED SMTP 550'],
      [error('EMESSAGE', { responseCode: 552 }), 'REJECTED SMTP 552'],
      [error('EPROTOCOL', { responseCode: 999 }), 'PROTOCOL'],
      [error('ESOCKET', { originalCode: 'no code; DROP TABLE' }), 'CONNECT'],
    ];
    for (const [e, reason] of cases)
      expect({ code: (e as { code?: string }).code, reason: smtpFailure(e).message }).toEqual({
        code: (e as { code?: string }).code,
        reason,
      });
    expect(smtpFailure(error('EAUTH'))).toBeInstanceOf(DeliveryFailure);
  });
});
