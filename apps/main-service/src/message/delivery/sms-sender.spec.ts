import { createHmac } from 'node:crypto';
import { DeliveryFailure } from './delivery-failure';
import { httpFailure, providerMessageId, signSmsRequest } from './sms-sender';

describe('signSmsRequest', () => {
  it('signs method, path, timestamp, nonce and body, one per line: changing any one changes the signature', () => {
    const parts = {
      method: 'POST',
      path: '/sms/send?a=1',
      timestamp: '1767225600000',
      nonce: '00112233445566778899aabbccddeeff',
      body: '{"x":1}',
    };
    const expected = createHmac('sha256', 'secret')
      .update('POST\n/sms/send?a=1\n1767225600000\n00112233445566778899aabbccddeeff\n{"x":1}')
      .digest('hex');
    expect(signSmsRequest(parts, 'secret')).toBe(expected);
    for (const key of Object.keys(parts) as (keyof typeof parts)[])
      expect(signSmsRequest({ ...parts, [key]: `${parts[key]}0` }, 'secret')).not.toBe(expected);
  });
});

describe('providerMessageId', () => {
  it('an id of id characters, at most 128; a number as its digits', () => {
    expect(providerMessageId('{"messageId":"900619746936498440^0"}')).toBe('900619746936498440^0');
    expect(providerMessageId('{"messageId":"SM0123abcd-ef:1/2+3=@x.y"}')).toBe('SM0123abcd-ef:1/2+3=@x.y');
    expect(providerMessageId('{"messageId":12345}')).toBe('12345');
    expect(providerMessageId(JSON.stringify({ messageId: 'a'.repeat(128) }))).toHaveLength(128);
  });

  it('anything else is a PROTOCOL failure, with nothing of the answer in it', () => {
    const refused = [
      '{"messageId":"has spaces in it"}',
      JSON.stringify({ messageId: 'a'.repeat(129) }),
      '{"messageId":""}',
      '{"messageId":1.5}',
      '{"id":"x"}',
      'null',
      '[]',
      '{"messageId":"<b>x</b>"}',
      '{"messageId":"-starts-with-dash"}',
    ];
    for (const text of refused)
      expect({ text, failure: catchFailure(() => providerMessageId(text)) }).toEqual({
        text,
        failure: 'PROTOCOL HTTP answer without a valid messageId',
      });
    expect(catchFailure(() => providerMessageId('SSH-2.0-OpenSSH_9.6'))).toBe('PROTOCOL HTTP answer not JSON');
  });
});

describe('httpFailure', () => {
  it('a timeout, a TLS error, a connection error: category and system code only', () => {
    expect(httpFailure(Object.assign(new Error('aborted'), { name: 'AbortError' })).message).toBe('TIMEOUT');
    expect(httpFailure(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })).message).toBe('CONNECT ECONNREFUSED');
    expect(httpFailure(Object.assign(new Error('x'), { code: 'CERT_HAS_EXPIRED' })).message).toBe('TLS CERT_HAS_EXPIRED');
    expect(httpFailure(new Error('socket hang up: remote said hello'))).toEqual(new DeliveryFailure('CONNECT'));
  });
});

function catchFailure(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as DeliveryFailure).message;
  }
  throw new Error('did not fail');
}
