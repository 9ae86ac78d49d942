/**
 * SIGTERM on the built service, started alone as in Kubernetes (docs/operations.md "Shutdown"):
 * requests in flight finish with 200, new connections are refused, the process exits 0.
 * Builds first (`npm run build`); always on SQLite in a temporary folder (the sequence does not depend on the database).
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bearer, TEST_JWT_SECRET } from '../support/tokens';

const ROOT = resolve(__dirname, '../..');
const IMPORT = '/main-service/system-api/configuration/data-dictionary-type/importList';
const ROWS = 4000;
const IN_FLIGHT = 4;

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

/**
 * An import whose body is sent in `chunks` parts `gapMs` apart: in flight (being read) for a known
 * time, while the server's event loop stays free (SQLite writes synchronously once the body is in).
 */
function slowImport(port: number, n: number, chunks = 10, gapMs = 150): Promise<{ http: number; body: { status: number; extraData: { count: number } } }> {
  const body = Buffer.from(JSON.stringify(Array.from({ length: ROWS }, (_, i) => ({ dataDictionaryTypeCode: `shutdown-${n}-${i}`, name: `Name ${i}`, sort: i }))));
  return new Promise((done, fail) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: IMPORT, headers: { Authorization: bearer(), 'Content-Type': 'application/json', 'Content-Length': body.length } },
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
    next();
  });
}

describe('graceful shutdown of the built main-service', () => {
  let dir: string;
  let child: ChildProcess;
  let port: number;
  let output = '';
  const base = () => `http://127.0.0.1:${port}`;

  beforeAll(async () => {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe', timeout: 240_000 });
    dir = mkdtempSync(join(tmpdir(), 'shutdown-'));
    port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, SQLITE_DIR: dir, PORT: String(port), JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'log', SHUTDOWN_TIMEOUT_MS: '60000' };
    delete env.DB_URL;
    delete env.KAFKA_BROKERS;
    child = spawn(process.execPath, [join(ROOT, 'dist/apps/main-service/src/main.js')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    for (let i = 0; ; i++) {
      const ready = await fetch(`${base()}/main-service/health/ready`).then((r) => r.status, () => 0);
      if (ready === 200) break;
      if (i > 300 || child.exitCode !== null) throw new Error(`service did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 300_000);

  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finishes the requests in flight with 200, refuses new connections, exits 0', async () => {
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    // each import's body takes ~1.5 s to arrive: all of them are in flight when the signal comes
    const imports = Array.from({ length: IN_FLIGHT }, (_, n) => slowImport(port, n));
    await new Promise((r) => setTimeout(r, 300));
    const sentAt = Date.now();
    child.kill('SIGTERM');
    // SQLite writes synchronously: the signal is handled between two imports' writes
    for (let i = 0; i < 600 && !output.includes('SIGTERM: draining'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await tryConnect(port)).toBe('ECONNREFUSED');

    const results = await Promise.all(imports);
    expect(results.map((r) => [r.http, r.body.status, r.body.extraData.count])).toEqual(Array.from({ length: IN_FLIGHT }, () => [200, 200, ROWS]));
    expect(await exited).toBe(0);
    // some imports were still running when the server stopped listening (else this test proves nothing)
    const drainingAt = Date.parse(JSON.parse(output.split('\n').find((l) => l.includes('SIGTERM: draining'))!).time);
    const completed = output.split('\n').filter((l) => l.includes('"route":"' + IMPORT + '"')).map((l) => Date.parse(JSON.parse(l).time));
    expect(completed).toHaveLength(IN_FLIGHT);
    expect(Math.max(...completed)).toBeGreaterThan(Math.max(sentAt, drainingAt));
  }, 120_000);
});
