import { BadRequestException, ForbiddenException, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { message } from '../i18n/message';
import { AppException, HttpRefusal } from './app-exception';
import { classify } from './exception.filter';

const dbError = (code: string) => new QueryFailedError('SELECT secret FROM t', [], Object.assign(new Error('boom'), { code }));

describe('classify (contract.md "The envelope")', () => {
  it.each([
    ['a business failure', new AppException(422, 'Value set exists'), { http: 200, body: 422, error: 'Value set exists' }],
    [
      'malformed JSON',
      new BadRequestException('Unexpected token', { cause: Object.assign(new SyntaxError('x'), { type: 'entity.parse.failed' }) }),
      { http: 200, body: 1004 },
    ],
    [
      'a compressed body that is corrupt or cut short',
      Object.assign(new Error('incorrect header check'), { code: 'Z_DATA_ERROR', status: 400, type: 'encoding.corrupt' }),
      { http: 400, body: 400, error: 'Request body could not be decompressed (corrupt or truncated Content-Encoding)' },
    ],
    [
      'an upload the client broke off',
      Object.assign(new Error('request aborted'), { code: 'ECONNABORTED', status: 400, type: 'request.aborted' }),
      { http: 400, body: 400, error: 'Request body incomplete: the client stopped sending it' },
    ],
    [
      'a body shorter than its Content-Length',
      Object.assign(new Error('request size did not match content length'), { status: 400, type: 'request.size.invalid' }),
      { http: 400, body: 400 },
    ],
    [
      'bytes that are not UTF-8',
      Object.assign(new Error('x'), { type: 'charset.invalid' }),
      { http: 415, body: 415, error: 'Request body is not valid UTF-8' },
    ],
    [
      'a form of too many parameters',
      Object.assign(new Error('too many parameters'), { status: 413, type: 'parameters.too.many' }),
      { http: 413, body: 413 },
    ],
    [
      'an error type of no body failure (a prototype key)',
      Object.assign(new Error('x'), { type: 'constructor' }),
      { http: 500, body: 500 },
    ],
    ['a missing token', new UnauthorizedException(), { http: 401, body: 401 }],
    ['a missing permission', new ForbiddenException(), { http: 403, body: 403, error: 'Forbidden' }],
    [
      'a missing permission, named',
      new HttpRefusal(403, message('Forbidden: needs permission {{permission}}', { permission: 'thing:create' })),
      { http: 403, body: 403, error: 'Forbidden: needs permission thing:create' },
    ],
    [
      'a refused token, with its reason',
      new HttpRefusal(401, 'Unauthorized: the token has expired'),
      { http: 401, body: 401, error: 'Unauthorized: the token has expired' },
    ],
    ['an unknown route', new NotFoundException('Cannot GET /x'), { http: 404, body: 404, error: 'Not found' }],
    ['a lost MySQL connection', dbError('PROTOCOL_CONNECTION_LOST'), { http: 503, body: 503 }],
    ['a busy SQLite', dbError('SQLITE_BUSY'), { http: 503, body: 503 }],
    ['an unmapped duplicate key', dbError('ER_DUP_ENTRY'), { http: 200, body: 422 }],
    ['anything else, without its message', dbError('ER_PARSE_ERROR'), { http: 500, body: 500, error: 'Internal server error' }],
  ])('%s', (_name, exception, expected) => {
    const c = classify(exception);
    expect(c).toMatchObject(expected);
    expect(c.error).not.toMatch(/SELECT|secret/);
  });
});
