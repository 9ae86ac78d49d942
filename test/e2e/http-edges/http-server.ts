/**
 * The HTTP server under every entry point (main-service alone, device-service alone, the combined local
 * server), listening on a real port and spoken to with raw HTTP: request lines and headers up to 64 KiB
 * reach the operations (1000 ids of 21 characters in removeByIds), and what Node refuses before any route
 * (431 header too large, 400 malformed, 408 for a client too slow to send its request) is answered with the
 * envelope and the connection closed.
 */
import { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { AddressInfo, connect } from 'node:net';
import { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CombinedServer, createCombinedServer } from '../../../apps/local/src/combined-server';
import { createDeviceService } from '../../../apps/device-service/src/main';
import { createMainService } from '../../../apps/main-service/src/main';
import { HEADERS_TIMEOUT_MS } from '@app/common';
import { createTestDatabase, TestDatabase, usingMysql } from '../../support/database';
import { withProcessEnv } from '../../support/process-env';
import { TEST_DEVICE_TOKEN_SECRET } from '../../support/device-app';
import { bearer, TEST_JWT_SECRET } from '../../support/tokens';
import { budget } from '../../support/time-budget';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const newId = (): string => Array.from(randomBytes(21), (b) => ALPHABET[b % ALPHABET.length]).join('');

interface RawResponse {
  statusLine: string;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection after answering. */
  closed: boolean;
}

/**
 * Sends `head` (and `body`) as bytes on a fresh connection; resolves once the server ended it, or after one answer it keeps the connection open for.
 * `trickle`: then one more byte every 200 ms, as a slow client would, until the server ends the connection.
 */
function exchange(port: number, head: string, body = '', trickle = false): Promise<RawResponse> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      const [top, ...rest] = text.split('\r\n\r\n');
      if (!top) return fail(new Error('no answer'));
      const [statusLine, ...lines] = top.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      done({ statusLine, headers, body: rest.join('\r\n\r\n'), closed });
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      // one complete answer on a connection the server keeps open is enough; after `Connection: close` the
      // server's end of the connection is awaited (and reported as `closed`)
      const start = text.indexOf('\r\n\r\n');
      const head = start >= 0 ? text.slice(0, start) : '';
      const length = /\r\ncontent-length: (\d+)/i.exec(head)?.[1];
      if (length && !/\r\nconnection: close/i.test(head) && Buffer.byteLength(text.slice(start + 4), 'latin1') >= Number(length))
        finish(false);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    // the server may stop reading an oversized head; what it answered before that still counts
    socket.on('error', () => finish(true));
    socket.write(head + body);
    if (trickle) {
      const dripping = setInterval(() => socket.writable && socket.write('x'), 200);
      socket.on('close', () => clearInterval(dripping));
    }
  });
}

const request = (port: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const json = body === undefined ? '' : JSON.stringify(body);
  const lines = [
    `${method} ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Authorization: ${bearer()}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  if (body !== undefined) lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(json)}`);
  return exchange(port, `${lines.join('\r\n')}\r\n\r\n`, json);
};
const envelope = (res: RawResponse) =>
  JSON.parse(res.body) as {
    status: number;
    error: string | null;
    path: string | null;
    data: unknown;
    extraData: unknown;
    timestamp: number;
    localizedError: string | null;
  };

/** One resource of a service: where to save a record with a given id, read it and remove ids. */
interface Resource {
  base: string;
  idField: string;
  body: (id: string) => Record<string, unknown>;
}
const DATA_DICTIONARY_TYPE: Resource = {
  base: '/main-service/system-api/configuration/data-dictionary-type',
  idField: 'dataDictionaryTypeId',
  body: (id) => ({ dataDictionaryTypeId: id, dataDictionaryTypeCode: `code-${id}`, name: 'Name' }),
};
const DATA_ACQUISITION_SERVER: Resource = {
  base: '/device-service/system-api/device/data-acquisition-server',
  idField: 'dataAcquisitionServerId',
  body: (id) => ({ dataAcquisitionServerId: id, dataAcquisitionServerNo: `DAS-${id}`, secret: 'provisioning-secret-0001' }),
};

/** A running entry point: its port and the resources it serves. */
interface Target {
  port: number;
  resources: Resource[];
  close: () => Promise<void>;
}

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
};

/** HTTP_REQUEST_TIMEOUT_MS of the servers under test: the shortest the configuration accepts, so a slow client is cut within the test. */
const REQUEST_TIMEOUT_MS = 1000;

/** The test's environment for a server under test: secrets, quiet logs and the short request timeout. */
const SERVER_ENV = {
  JWT_SECRET: TEST_JWT_SECRET,
  DEVICE_TOKEN_SECRET: TEST_DEVICE_TOKEN_SECRET,
  LOG_LEVEL: 'fatal',
  HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
};

/** A service alone, as its main.ts starts it (its own adapter and server), on a fresh database. */
async function alone(create: () => Promise<INestApplication>, resources: Resource[]): Promise<Target> {
  const database: TestDatabase = await createTestDatabase();
  const app = await withProcessEnv({ ...SERVER_ENV, ...database.env }, async () => {
    const created = await create();
    if (database.env.DB_URL) await created.get(DataSource).runMigrations();
    await created.listen(0, '127.0.0.1');
    return created;
  });
  return {
    port: (app.getHttpServer().address() as AddressInfo).port,
    resources,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

async function combined(): Promise<Target> {
  const server: CombinedServer = await withProcessEnv({ ...SERVER_ENV, SQLITE_DIR: ':memory:' }, createCombinedServer);
  return { port: await listen(server.server), resources: [DATA_DICTIONARY_TYPE, DATA_ACQUISITION_SERVER], close: () => server.close() };
}

const TARGETS: { name: string; start: () => Promise<Target>; sqliteOnly?: boolean }[] = [
  { name: 'main-service alone', start: () => alone(createMainService, [DATA_DICTIONARY_TYPE]) },
  { name: 'device-service alone', start: () => alone(createDeviceService, [DATA_ACQUISITION_SERVER]) },
  // the combined server is the embedded SQLite default
  { name: 'the combined local server', start: combined, sqliteOnly: true },
];

describe.each(TARGETS)('HTTP server of $name', ({ start, sqliteOnly }) => {
  const run = sqliteOnly && usingMysql() ? it.skip : it;
  let target: Target | undefined;

  beforeAll(async () => {
    if (!(sqliteOnly && usingMysql())) target = await start();
  }, budget(60_000));
  afterAll(() => target?.close());

  run('lets 1000 ids of 21 characters reach removeByIds and removes the records among them', async () => {
    const { port, resources } = target!;
    for (const resource of resources) {
      const ids = Array.from({ length: 1000 }, newId);
      const kept = newId();
      for (const id of [ids[0], ids[999], kept])
        expect(envelope(await request(port, 'POST', `${resource.base}/save`, resource.body(id)))).toMatchObject({
          status: 200,
          data: true,
        });

      const path = `${resource.base}/removeByIds?${ids.map((id) => `ids=${id}`).join('&')}`;
      expect(path.length).toBeGreaterThan(26_000); // well past Node's default 16 KiB
      const removed = await request(port, 'DELETE', path);
      expect(removed.statusLine).toBe('HTTP/1.1 200 OK');
      expect(envelope(removed)).toMatchObject({ status: 200, error: null, data: true });

      const read = async (id: string) => envelope(await request(port, 'GET', `${resource.base}/getById?id=${id}`)).data;
      expect(await read(ids[0])).toBeNull();
      expect(await read(ids[999])).toBeNull();
      expect(await read(kept)).toMatchObject({ [resource.idField]: kept });
    }
  });

  run('answers a head above 64 KiB with 431 and the envelope, then closes the connection', async () => {
    const { port, resources } = target!;
    const path = `${resources[0].base.split('/').slice(0, 2).join('/')}/health/live`;
    const res = await request(port, 'GET', path, undefined, { 'X-Padding': 'a'.repeat(70 * 1024) });
    expect(res.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers.connection).toBe('close');
    expect(res.closed).toBe(true);
    const body = envelope(res);
    expect(body).toEqual({
      timestamp: expect.any(Number),
      status: 431,
      error: expect.stringContaining('65536 bytes'),
      localizedError: body.error,
      path: body.path,
      extraData: {},
      data: null,
    });
    // the path is known only when the refused chunk still holds the request line (not so for 70 KiB)
    expect([path, null]).toContain(body.path);
  });

  run('still serves a head just below 64 KiB', async () => {
    const { port, resources } = target!;
    const path = `${resources[0].base.split('/').slice(0, 2).join('/')}/health/live`;
    const res = await request(port, 'GET', path, undefined, { 'X-Padding': 'a'.repeat(60 * 1024) });
    expect(res.statusLine).toBe('HTTP/1.1 200 OK');
  });

  /** Sends `head` and `body`, then trickles; resolves to the answer and how long it took. */
  const slowly = async (head: string, body = '') => {
    const started = performance.now();
    const res = await exchange(target!.port, head, body, true);
    return { res, elapsedMs: performance.now() - started };
  };
  const expectCut = ({ res, elapsedMs }: { res: RawResponse; elapsedMs: number }) => {
    expect(res.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(res.closed).toBe(true);
    expect(envelope(res)).toMatchObject({ status: 408, error: 'Request not received in time', data: null });
    // not before the timeout (Node looks for expired requests once a second), and by the request's own time,
    // not the longer bound on every head (a cut at Node's defaults, 60 s and 300 s, would outlast the test)
    expect(elapsedMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(elapsedMs).toBeLessThan(HEADERS_TIMEOUT_MS);
  };

  // both slow clients at once: each cut waits for the timeout and Node's next check
  run(
    `cuts a body, and a request line and headers, still arriving after HTTP_REQUEST_TIMEOUT_MS (${REQUEST_TIMEOUT_MS} ms) with the 408 envelope`,
    async () => {
      const { resources } = target!;
      const head = [
        `POST ${resources[0].base}/count HTTP/1.1`,
        'Host: 127.0.0.1',
        `Authorization: ${bearer()}`,
        'Content-Type: application/json',
        'Content-Length: 100000',
      ].join('\r\n');
      const [body, requestHead] = await Promise.all([
        slowly(`${head}\r\n\r\n`, '{"a":"'),
        slowly('GET /main-service/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '),
      ]);
      expectCut(body);
      expectCut(requestHead);
    },
  );

  run('answers a malformed request with 400 and the envelope, then closes the connection', async () => {
    const res = await exchange(target!.port, 'GET /main-service/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header Line\r\n\r\n');
    expect(res.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.closed).toBe(true);
    expect(envelope(res)).toMatchObject({
      status: 400,
      error: 'Malformed HTTP request',
      path: '/main-service/health/live',
      data: null,
      extraData: {},
    });

    const garbage = await exchange(target!.port, '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n'); // a TLS hello on the plain port
    expect(garbage.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(envelope(garbage)).toMatchObject({ status: 400, path: null, data: null });
  });
});
