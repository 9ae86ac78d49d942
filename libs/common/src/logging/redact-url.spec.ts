import { queryParameterNames, redactUrl as redactWith } from './app-logging';

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
