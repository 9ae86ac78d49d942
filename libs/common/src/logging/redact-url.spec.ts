import { queryParameterNames, redactUrl as redactWith } from './app-logging';
import { printableDatabaseUrl, readDatabaseUrl } from './database-url';

/** A service that takes credentials in its query (named in any case by its manifest). */
const secret = queryParameterNames({ name: 'a-service', redactedQueryParameters: ['Token', 'secret'] });
const redactUrl = (url: string) => redactWith(url, secret);

describe('redactUrl', () => {
  it('masks token and secret values by their decoded name, in any case and any position', () => {
    expect(redactUrl('/d/call?no=A-1&token=abc.def&x=1')).toBe('/d/call?no=A-1&token=[Redacted]&x=1');
    expect(redactUrl('/d/call?%73ecret=s3cr3t&%74oken=t0k3n')).toBe('/d/call?%73ecret=[Redacted]&%74oken=[Redacted]');
    expect(redactUrl('/d/call?SECRET=a&ToKeN=b&%54OKEN=c')).toBe('/d/call?SECRET=[Redacted]&ToKeN=[Redacted]&%54OKEN=[Redacted]');
  });

  it('leaves other parameters, malformed escapes and URLs without a query as they are', () => {
    expect(redactUrl('/d/call')).toBe('/d/call');
    expect(redactUrl('/d/call?tokens=1&my-secret=2&token')).toBe('/d/call?tokens=1&my-secret=2&token');
    expect(redactUrl('/d/call?%E0%A4%A=1&token=x')).toBe('/d/call?%E0%A4%A=1&token=[Redacted]');
  });

  it('masks nothing for a service that names no credential parameter', () => {
    const none = queryParameterNames({ name: 'another-service' });
    expect(redactWith('/d/call?token=abc&secret=s', none)).toBe('/d/call?token=abc&secret=s');
  });
});

describe('printableDatabaseUrl', () => {
  /** Passwords an operator may write unescaped: each must vanish whole from the printed URL, with the user. */
  it.each(['P@ss-X', 'a/b', 'p#w', 'p?w', 'p:w:x', '@/#?:@', 'p@host/db', 'p%40ss', '%zz'])('password %j', (password) => {
    const printed = printableDatabaseUrl(`mysql://svc-user:${password}@db.example:3306/backoffice?charset=utf8mb4`);
    expect(printed).toBe('mysql://db.example:3306/backoffice');
  });

  it('prints scheme, host, port and database only, with or without credentials and port', () => {
    expect(printableDatabaseUrl('mariadb://root@127.0.0.1/main')).toBe('mariadb://127.0.0.1/main');
    expect(printableDatabaseUrl('mysql://127.0.0.1:3307/main')).toBe('mysql://127.0.0.1:3307/main');
    expect(printableDatabaseUrl('mysql://u:p@host/db?ssl=x@y')).toBe('mysql://host/db');
  });

  it('shows nothing of a URL it cannot read', () => {
    for (const url of ['mysql://u:secret@host', 'u:secret@host/db', 'mysql://u:secret@host:port/db', 'mysql://u:secret@host/a b'])
      expect(printableDatabaseUrl(url)).toBe('(not a readable database URL)');
  });
});

describe('readDatabaseUrl', () => {
  it('splits the credentials at the last @ a host and database follow, the user at the first colon, decoding escapes', () => {
    expect(readDatabaseUrl('mysql://svc:P@ss/#?:x@db.example:3306/backoffice?a=b')).toEqual({
      scheme: 'mysql',
      user: 'svc',
      password: 'P@ss/#?:x',
      host: 'db.example',
      port: 3306,
      database: 'backoffice',
    });
    expect(readDatabaseUrl('mysql://a%40b:p%2Fw@h/d')).toMatchObject({ user: 'a@b', password: 'p/w', port: undefined });
    expect(readDatabaseUrl('mysql://h/d')).toMatchObject({ user: '', password: '', host: 'h', database: 'd' });
  });
});
