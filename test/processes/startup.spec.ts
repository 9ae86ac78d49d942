/**
 * Start-up as an operator meets it (docs/operations.md "Start-up"): the built services and tools run as
 * processes. A failure an operator fixes by configuration is one report naming the variable (JSON lines
 * when the output is not a terminal), with no stack trace, and exit 1; start-up lines name their service.
 * `npm start` stops when npm gets SIGTERM; `npm run migrate` says what it did to the database.
 */
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { get } from 'node:http';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildIfStale } from '../../scripts/build-if-stale';
import { baseDatabaseName, databaseUrl, dropDatabase, serverConnection, usingMysql } from '../support/database';

const ROOT = resolve(__dirname, '../..');
const MAIN = 'dist/apps/main-service/src/main.js';
const COMBINED = 'dist/apps/local/src/local.js';
const STACK_LINE = /\n\s+at /;

// each case starts a process or two: a few seconds each on a quiet machine, tens on a busy one
jest.setTimeout(120_000);

interface Run {
  exitCode: number | null;
  output: string;
  lines: Record<string, unknown>[];
}

/** The environment of a child: this one's without DB_URL (tests set it), plus `env`. */
const childEnv = (dir: string, env: Record<string, string>) => {
  const { DB_URL: _db, PORT: _port, LOG_LEVEL: _level, ...inherited } = process.env;
  return { ...inherited, SQLITE_DIR: dir, ...env };
};

const jsonLines = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Runs a built entry until it exits, or until `until` holds for its output (then it is stopped). */
function run(entry: string, env: Record<string, string>, until?: (output: string) => boolean): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'startup-'));
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, entry)], {
    cwd: ROOT,
    env: childEnv(dir, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (until?.(output)) child.kill('SIGTERM');
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
      done({ exitCode, output, lines: jsonLines(output) });
    });
  });
}

const fatal = (result: Run) => result.lines.filter((line) => line.level === 60);

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Whether something on the port answers main-service's liveness probe. */
const answers = (port: number): Promise<boolean> =>
  new Promise((done) =>
    get({ host: '127.0.0.1', port, path: '/main-service/health/live', agent: false }, (res) => {
      res.resume();
      done(res.statusCode === 200);
    }).on('error', () => done(false)),
  );

/** A port something listens on. */
const occupiedPort = (): Promise<Server> =>
  new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => done(server));
  });
const portOf = (server: Server) => (server.address() as { port: number }).port;
const freePort = async () => {
  const server = await occupiedPort();
  const port = portOf(server);
  await new Promise((done) => server.close(done));
  return port;
};

beforeAll(() => {
  buildIfStale({ quiet: true });
}, 300_000);

describe('start-up failures (built main-service)', () => {
  it('reports every invalid variable in one JSON line, without a stack, and exits 1', async () => {
    const result = await run(MAIN, { PORT: 'abc', LOG_LEVEL: 'loud', JWT_SECRET: 'short' });
    expect(result.exitCode).toBe(1);
    expect(fatal(result)).toHaveLength(1);
    const [report] = fatal(result);
    expect(report).toMatchObject({ service: 'main-service', msg: 'Invalid configuration' });
    const problems = report.problems as string[];
    expect(problems.map((problem) => problem.split(':')[0]).sort()).toEqual(['JWT_SECRET', 'LOG_LEVEL', 'PORT']);
    expect(result.output).not.toMatch(STACK_LINE);
    expect(result.output).not.toContain('short');
  });

  it.each([
    ['main-service', MAIN],
    ['the combined server', COMBINED],
  ])('names PORT when %s cannot listen (the port is in use)', async (_name, entry) => {
    const taken = await occupiedPort();
    try {
      const result = await run(entry, { PORT: String(portOf(taken)) });
      expect(result.exitCode).toBe(1);
      expect(fatal(result).map((line) => line.msg)).toEqual([
        `PORT ${portOf(taken)} is already in use: stop what listens there or set PORT to a free port`,
      ]);
      expect(result.output).not.toMatch(STACK_LINE);
      expect(result.output).not.toContain("Unhandled 'error' event");
    } finally {
      taken.close();
    }
  });

  it('names DB_URL, without its user and password, when the database cannot be reached', async () => {
    const port = await freePort();
    const result = await run(MAIN, { DB_URL: `mysql://backoffice:s3cret-pw@127.0.0.1:${port}/backoffice` });
    expect(result.exitCode).toBe(1);
    expect(fatal(result).map((line) => line.msg)).toEqual([
      `Cannot use the database at DB_URL=mysql://127.0.0.1:${port}/backoffice: ECONNREFUSED (connect ECONNREFUSED 127.0.0.1:${port})`,
    ]);
    expect(result.output).not.toContain('s3cret-pw');
    expect(result.output).not.toMatch(STACK_LINE);
  });
});

describe('start-up lines', () => {
  const started = (output: string) => output.includes('listening on');

  it.each(['info', 'trace'])('LOG_LEVEL=%s (pino and Nest names) is accepted', async (level) => {
    const result = await run(MAIN, { PORT: String(await freePort()), LOG_LEVEL: level }, started);
    expect(fatal(result)).toEqual([]);
    expect(result.output).toContain('listening on');
  });

  it("the combined server's lines name the service that writes them; module and route lines only at debug", async () => {
    const result = await run(COMBINED, { PORT: String(await freePort()) }, started);
    const warnings = result.lines.filter((line) => String(line.msg).startsWith('DEVICE_TOKEN_SECRET'));
    expect(warnings.map((line) => line.service)).toEqual(['device-service']);
    const starts = result.lines.filter((line) => line.msg === 'Nest application successfully started');
    expect(starts.map((line) => line.service)).toEqual(['main-service', 'device-service']);
    expect(result.lines.filter((line) => ['InstanceLoader', 'RoutesResolver', 'RouterExplorer'].includes(String(line.context)))).toEqual(
      [],
    );
    // a few lines, not one per module and route
    expect(result.lines.length).toBeLessThan(20);
    const debug = await run(COMBINED, { PORT: String(await freePort()), LOG_LEVEL: 'debug' }, started);
    const routes = debug.lines.filter((line) => line.context === 'RouterExplorer');
    expect(routes.length).toBeGreaterThan(100);
    expect(routes.every((line) => line.level === 20)).toBe(true);
  });
});

describe('npm start', () => {
  it('builds only when the sources changed since the last build (its prestart step)', async () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const built = join(ROOT, COMBINED);
    const before = statSync(built).mtimeMs;
    // the step npm runs before `start`, run as npm runs it
    await promisify(execFile)('sh', ['-c', scripts.prestart], { cwd: ROOT });
    expect(statSync(built).mtimeMs).toBe(before);
  });

  it('stops the server when npm, which started it, gets SIGTERM', async () => {
    const shutdownMs = 10_000;
    const dir = mkdtempSync(join(tmpdir(), 'npm-start-'));
    const port = await freePort();
    // a process group of its own: whatever npm started can be stopped with it, whatever the test's outcome
    const npm = spawn('npm', ['start'], {
      cwd: ROOT,
      env: childEnv(dir, { PORT: String(port), SHUTDOWN_TIMEOUT_MS: String(shutdownMs) }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    npm.stdout!.on('data', (chunk) => (output += chunk));
    npm.stderr!.on('data', (chunk) => (output += chunk));
    const npmExited = new Promise<number | null>((done) => npm.once('exit', (code) => done(code)));
    try {
      for (let i = 0; !(await answers(port)); i++) {
        if (i > 600 || npm.exitCode !== null) throw new Error(`npm start did not answer:\n${output}`);
        await sleep(100);
      }
      npm.kill('SIGTERM');
      const signalled = Date.now();
      while ((await answers(port)) && Date.now() - signalled < shutdownMs) await sleep(100);
      expect(await answers(port)).toBe(false);
      expect(await npmExited).toBe(0);
      // the server's own shutdown, not a kill: its lines are all out once npm has exited
      expect(output).toContain('SIGTERM: draining');
    } finally {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // the group is gone: npm and the server both exited
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('npm run token', () => {
  const token = (args: string[]) =>
    promisify(execFile)(process.execPath, [join(ROOT, 'dist/apps/main-service/src/mint-token.js'), ...args]).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  it('--help prints the usage', async () => {
    const result = await token(['--help']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^Usage: npm run --silent token -- \[options\]/);
    for (const option of ['--tenant', '--user', '--roles', '--permissions', '--expires']) expect(result.stdout).toContain(option);
  });

  it('an unknown option is named, followed by the usage', async () => {
    const result = await token(['--tenantt', 'acme']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Unknown option '--tenantt'/);
    expect(result.stderr).toContain('Usage:');
  });
});

(usingMysql() ? describe : describe.skip)('npm run migrate (MySQL/MariaDB)', () => {
  const name = () => `${baseDatabaseName()}_new_${process.pid}`;
  afterAll(() => dropDatabase(name()));

  const migrate = () => run('dist/apps/main-service/src/migrate.js', { DB_URL: databaseUrl(name()) });
  const said = (result: Run) => result.lines.filter((line) => line.context === 'Migrate').map((line) => String(line.msg));

  it('creates a database that does not exist yet, then applies the migrations, saying so', async () => {
    const result = await migrate();
    expect({ exitCode: result.exitCode, fatal: fatal(result) }).toEqual({ exitCode: 0, fatal: [] });
    const connection = await serverConnection();
    const [rows] = await connection.query('SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = ?', [name()]);
    await connection.end();
    expect((rows as { n: number }[])[0].n).toBeGreaterThan(10);
    const [created, applied, ...more] = said(result);
    expect({ created, more }).toEqual({ created: `created database ${name()}`, more: [] });
    expect(applied).toMatch(new RegExp(`^applied \\d+ migrations to ${name()}: \\w+`));
  });

  it('says the database is up to date when nothing is pending', async () => {
    const result = await migrate();
    expect({ exitCode: result.exitCode, said: said(result) }).toEqual({ exitCode: 0, said: [`database ${name()} is up to date`] });
  });
});
