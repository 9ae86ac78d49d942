/**
 * SIGTERM on the built services, each alone as in Kubernetes and both behind one port as `npm start` runs them (docs/operations.md "Shutdown"):
 * requests in flight finish with 200, new connections are refused, the process exits 0.
 * Builds first when dist is missing or older than the sources (scripts/build-if-stale.js); always on SQLite in a
 * temporary folder (the sequence does not depend on the database).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, get, request } from 'node:http';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildIfStale } from '../../scripts/build-if-stale';
import { bearer, TEST_JWT_SECRET } from '../support/tokens';

const ROOT = resolve(__dirname, '../..');
const IN_FLIGHT_PER_SERVICE = 2;

/** A write of one service: its path and a body (large for main-service's import, small for the registry). */
interface Write {
  path: string;
  body: (n: number) => unknown;
  /** `extraData.count` for an import, `data: true` for a save. */
  done: (body: { data: unknown; extraData: { count?: number } }) => unknown;
}

const ROWS = 4000;
const MAIN_WRITE: Write = {
  path: '/main-service/system-api/configuration/data-dictionary-type/importList',
  body: (n) => Array.from({ length: ROWS }, (_, i) => ({ dataDictionaryTypeCode: `shutdown-${n}-${i}`, name: `Name ${i}`, sort: i })),
  done: (body) => body.extraData.count,
};
const DEVICE_WRITE: Write = {
  path: '/device-service/system-api/device/data-acquisition-server/save',
  body: (n) => ({ dataAcquisitionServerNo: `DAS-SHUTDOWN-${n}`, name: `Server ${n}`, secret: 'correct-horse-battery-staple' }),
  done: (body) => body.data,
};

/** The three ways the services run: each alone (Kubernetes) and both behind one port (`npm start`). */
const TARGETS = [
  { name: 'main-service alone', entry: 'dist/apps/main-service/src/main.js', writes: [MAIN_WRITE] },
  { name: 'device-service alone', entry: 'dist/apps/device-service/src/main.js', writes: [DEVICE_WRITE] },
  { name: 'the combined server', entry: 'dist/apps/local/src/local.js', writes: [MAIN_WRITE, DEVICE_WRITE] },
];

const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
    server.on('error', fail);
  });

/** Resolves to the connection error code, or 'connected'. */
const tryConnect = (port: number): Promise<string> =>
  new Promise((done) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      done('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
  });

interface SlowWrite {
  /** Resolves once the server has accepted the connection and read the request head (its 100 Continue). */
  accepted: Promise<void>;
  result: Promise<{ http: number; body: { status: number; data: unknown; extraData: { count?: number } } }>;
}

/**
 * A write whose body is sent in `chunks` parts `gapMs` apart, after the server answered `Expect: 100-continue`
 * (so the request is known to be accepted, not waiting in the listen backlog): in flight (being read) for a
 * known time, while the server's event loop stays free (SQLite writes synchronously once the body is in).
 */
function slowWrite(port: number, write: Write, n: number, chunks = 10, gapMs = 150): SlowWrite {
  const body = Buffer.from(JSON.stringify(write.body(n)));
  let accept!: () => void;
  const accepted = new Promise<void>((done) => (accept = done));
  const result: SlowWrite['result'] = new Promise((done, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: write.path,
        headers: { Authorization: bearer(), 'Content-Type': 'application/json', 'Content-Length': body.length, Expect: '100-continue' },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => done({ http: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', fail);
    const size = Math.ceil(body.length / chunks);
    let sent = 0;
    const next = (): void => {
      req.write(body.subarray(sent, sent + size));
      sent += size;
      if (sent < body.length) setTimeout(next, gapMs);
      else req.end();
    };
    req.once('continue', () => {
      accept();
      next();
    });
    req.flushHeaders();
  });
  return { accepted, result };
}

const readyPath = (write: Write) => `/${write.path.split('/')[1]}/health/ready`;
const livePath = (write: Write) => `/${write.path.split('/')[1]}/health/live`;

/**
 * A GET's status, its Connection header and whether it went on a kept-alive connection; with no agent
 * given, on a connection of its own that it closes (an idle one would hold the draining server open).
 */
const getStatus = (url: string, agent: Agent | false = false): Promise<{ http: number; connection?: string; reused: boolean }> =>
  new Promise((done) => {
    const req = get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => done({ http: res.statusCode ?? 0, connection: res.headers.connection, reused: req.reusedSocket }));
    });
    req.on('error', () => done({ http: 0, reused: req.reusedSocket }));
  });

beforeAll(() => {
  buildIfStale({ quiet: true });
}, 300_000);

describe.each(TARGETS)('graceful shutdown of $name (built)', ({ entry, writes }) => {
  let dir: string;
  let child: ChildProcess;
  let port: number;
  let output = '';
  const base = () => `http://127.0.0.1:${port}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shutdown-'));
    port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SQLITE_DIR: dir,
      PORT: String(port),
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'log',
      SHUTDOWN_TIMEOUT_MS: '60000',
    };
    delete env.DB_URL;
    delete env.KAFKA_BROKERS;
    child = spawn(process.execPath, [join(ROOT, entry)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    for (let i = 0; ; i++) {
      const ready = await Promise.all(writes.map((w) => getStatus(`${base()}${readyPath(w)}`).then(({ http }) => http)));
      if (ready.every((status) => status === 200)) break;
      if (i > 300 || child.exitCode !== null) throw new Error(`service did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);

  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finishes the requests in flight with 200, refuses new connections, exits 0', async () => {
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    // each write's body takes ~1.5 s to arrive after the server accepted it: all of them are in flight when the signal comes
    const sent = writes.flatMap((write) => Array.from({ length: IN_FLIGHT_PER_SERVICE }, (_, n) => ({ write, n })));
    const pending = sent.map(({ write, n }) => slowWrite(port, write, n));
    // a client (a gateway) holding an idle kept-alive connection when the signal comes
    const keptAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    const live = `${base()}${livePath(writes[0])}`;
    expect(await getStatus(live, keptAlive)).toMatchObject({ http: 200, reused: false });
    // log lines reach standard output while the process runs (in batches, not held until it exits)
    const liveLine = `"route":"${livePath(writes[0])}"`;
    for (let i = 0; i < 100 && !output.includes(liveLine); i++) await new Promise((r) => setTimeout(r, 20));
    expect(output).toContain(liveLine);
    await Promise.all(pending.map((p) => p.accepted));
    const sentAt = Date.now();
    child.kill('SIGTERM');
    // SQLite writes synchronously: the signal is handled between two writes
    for (let i = 0; i < 600 && !output.includes('SIGTERM: draining'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await tryConnect(port)).toBe('ECONNREFUSED');
    // a request sent on the idle connection while draining is answered, and the connection then closed
    expect(await getStatus(live, keptAlive)).toEqual({ http: 200, connection: 'close', reused: true });
    keptAlive.destroy();

    const results = await Promise.all(pending.map((p) => p.result));
    expect(results.map((r) => [r.http, r.body.status])).toEqual(sent.map(() => [200, 200]));
    expect(results.map((r, i) => sent[i].write.done(r.body))).toEqual(sent.map(({ write }) => (write === MAIN_WRITE ? ROWS : true)));
    expect(await exited).toBe(0);
    // some writes were still running when the server stopped listening (else this test proves nothing)
    const lines = output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg?: string; route?: string; time: string });
    const drainingAt = Date.parse(lines.find((l) => l.msg?.includes('SIGTERM: draining'))!.time);
    const completed = lines.filter((l) => writes.some((w) => l.route === w.path)).map((l) => Date.parse(l.time));
    expect(completed).toHaveLength(sent.length);
    expect(Math.max(...completed)).toBeGreaterThan(Math.max(sentAt, drainingAt));
  }, 120_000);
});
