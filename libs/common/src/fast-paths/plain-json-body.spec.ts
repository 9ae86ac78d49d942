import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo, connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';
import { readRequestBody } from '../http/request-body';
import { plainJsonLength } from './plain-json-body';

/** What reading a body answers: the body it gives, or its failure's type and status. */
type Outcome = { body?: unknown; type?: string; status?: number; message?: string };

const LIMIT = '100b';

/** A server that reads each body with the fast path on or off (header x-fast) and answers with the outcome. */
function server(taken: string[]): Promise<Server> {
  const s = createServer((req: IncomingMessage, res: ServerResponse) => {
    const fast = req.headers['x-fast'] === 'on';
    if (fast && plainJsonLength(req, 100) !== undefined) taken.push(String(req.headers['x-case']));
    const answer = (outcome: Outcome) => res.end(JSON.stringify(outcome));
    const reading = readRequestBody(req as Request, res as Response, LIMIT, fast);
    if (!reading) return answer({ body: 'no body read' });
    reading.then(
      () => answer({ body: (req as Request).body as unknown }),
      (error: { type?: string; status?: number; message?: string }) =>
        answer({ type: error.type, status: error.status, message: error.type ? undefined : error.message }),
    );
  });
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve(s)));
}

/**
 * Sends one request as raw bytes (so any header and body can be sent as it is) and reads the answer's body. The
 * socket stays open until the answer is in: a client that half-closes may lose an answer that comes later.
 */
function send(port: number, head: string, body: Buffer): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(Buffer.concat([Buffer.from(head), body])));
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString();
      const end = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text.slice(0, end))?.[1];
      if (end < 0 || length === undefined || text.length < end + 4 + Number(length)) return;
      socket.destroy();
      resolve(JSON.parse(text.slice(end + 4)) as Outcome);
    });
    socket.on('error', reject);
  });
}

const json = (text: string) => Buffer.from(text);

/** [name, Content-Type (or none), body bytes, further headers] */
const CASES: [string, string | null, Buffer, string?][] = [
  ['object', 'application/json', json('{"a":1,"b":"x"}')],
  ['array', 'application/json', json('[{"a":1}]')],
  ['empty', 'application/json', json('')],
  ['scalar', 'application/json', json('"x"')],
  ['malformed', 'application/json', json('{"a":')],
  ['too deep', 'application/json', json('['.repeat(40) + ']'.repeat(40))],
  ['at the limit', 'application/json', json(`{"a":"${'x'.repeat(92)}"}`)],
  ['past the limit', 'application/json', json(`{"a":"${'x'.repeat(93)}"}`)],
  ['not UTF-8', 'application/json', Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])],
  ['proto key', 'application/json', json('{"__proto__":{"x":1},"a":null}')],
  ['upper case type', 'Application/JSON', json('{"a":1}')],
  ['charset', 'application/json; charset=utf-8', json('{"a":1}')],
  ['charset upper case', 'application/json;charset=UTF-8', json('{"a":1}')],
  ['charset quoted', 'application/json; charset="utf-8"', json('{"a":1}')],
  ['latin1', 'application/json; charset=latin1', json('{"a":1}')],
  ['other parameter', 'application/json; v=1', json('{"a":1}')],
  ['text', 'text/plain', json('{"a":1}')],
  ['json suffix', 'application/vnd.api+json', json('{"a":1}')],
  ['no type', null, json('{"a":1}')],
  ['form', 'application/x-www-form-urlencoded', json('a=1&b=x')],
  ['gzip', 'application/json', gzipSync('{"a":1}'), 'Content-Encoding: gzip\r\n'],
  ['identity', 'application/json', json('{"a":1}'), 'Content-Encoding: identity\r\n'],
];

describe('plain JSON bodies (fast path)', () => {
  const taken: string[] = [];
  let s: Server;
  let port: number;
  beforeAll(async () => {
    s = await server(taken);
    port = (s.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => s.close(resolve)));

  const request = (fast: 'on' | 'off', [name, type, body, extra = '']: (typeof CASES)[number], chunked = false) => {
    const head =
      `POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nx-fast: ${fast}\r\nx-case: ${name}\r\n` +
      (type === null ? '' : `Content-Type: ${type}\r\n`) +
      extra +
      (chunked ? 'Transfer-Encoding: chunked\r\n\r\n' : `Content-Length: ${body.length}\r\n\r\n`);
    const chunk = body.length
      ? Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n')])
      : Buffer.alloc(0);
    const sent = chunked ? Buffer.concat([chunk, Buffer.from('0\r\n\r\n')]) : body;
    return send(port, head, sent);
  };

  it.each(CASES)('%s: the same body or failure either way', async (...c) => {
    expect(await request('on', c)).toEqual(await request('off', c));
    expect(await request('on', c, true)).toEqual(await request('off', c, true));
  });

  it('reads plain JSON with a length the short way, and nothing else', () => {
    expect([...new Set(taken)].sort()).toEqual(
      [
        'object',
        'array',
        'empty',
        'scalar',
        'malformed',
        'too deep',
        'at the limit',
        'not UTF-8',
        'proto key',
        'upper case type',
        'charset',
        'charset upper case',
        'charset quoted',
      ].sort(),
    );
  });

  it('an upload the client breaks off fails as body-parser fails it (request.aborted)', async () => {
    const outcomes: Outcome[] = [];
    const aborted = createServer((req, res) => {
      const fast = req.headers['x-fast'] === 'on';
      readRequestBody(req as Request, res as Response, '1mb', fast)!.catch((error: { type?: string; status?: number }) => {
        outcomes.push({ type: error.type, status: error.status, body: fast });
      });
    });
    await new Promise<void>((resolve) => aborted.listen(0, '127.0.0.1', resolve));
    for (const fast of ['on', 'off']) {
      const socket = connect((aborted.address() as AddressInfo).port, '127.0.0.1', () =>
        socket.write(
          `POST / HTTP/1.1\r\nHost: x\r\nx-fast: ${fast}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`,
          () => setTimeout(() => socket.destroy(), 50),
        ),
      );
      for (let i = 0; i < 100 && outcomes.length < (fast === 'on' ? 1 : 2); i++) await new Promise((r) => setTimeout(r, 10));
    }
    await new Promise((resolve) => aborted.close(resolve));
    expect(outcomes).toEqual([
      { type: 'request.aborted', status: 400, body: true },
      { type: 'request.aborted', status: 400, body: false },
    ]);
  });
});
