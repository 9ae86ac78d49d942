/**
 * better-sqlite3 is an optional dependency, left out of the production images (docker/Dockerfile). A service started
 * without it and without DB_URL must stop at once and say to set DB_URL, not listen with no usable database.
 * Runs the built services (scripts/build-if-stale.js) with the driver made unresolvable by a preloaded module.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildIfStale } from '../../scripts/build-if-stale';
import { TEST_JWT_SECRET } from '../support/tokens';

const ROOT = resolve(__dirname, '../..');
// what Node does for a package that is not installed
const HIDE_DRIVER = `
const Module = require('node:module');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'better-sqlite3') throw Object.assign(new Error("Cannot find module 'better-sqlite3'"), { code: 'MODULE_NOT_FOUND' });
  return resolveFilename.call(this, request, ...rest);
};
`;

let dir: string;
beforeAll(() => {
  buildIfStale({ quiet: true });
  dir = mkdtempSync(join(tmpdir(), 'no-sqlite-'));
  writeFileSync(join(dir, 'hide-driver.js'), HIDE_DRIVER);
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(['main-service', 'device-service'])('%s without the SQLite driver (built)', (service) => {
  it('refuses to start without DB_URL, saying to set it', () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SQLITE_DIR: join(dir, 'data'),
      JWT_SECRET: TEST_JWT_SECRET,
      DEVICE_TOKEN_SECRET: 'device-token-secret-for-tests',
    };
    // it stops before listening: the default port is never taken
    delete env.PORT;
    delete env.DB_URL;
    delete env.KAFKA_BROKERS;
    const run = spawnSync(process.execPath, ['--require', join(dir, 'hide-driver.js'), `dist/apps/${service}/src/main.js`], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      // a service that starts anyway is killed (and the test fails), whatever it does with SIGTERM
      timeout: 30_000,
      killSignal: 'SIGKILL',
    });
    const output = run.stdout + run.stderr;
    expect(run.status).toBe(1);
    expect(output).toContain('DB_URL is not set, which selects the embedded SQLite database, but its driver better-sqlite3');
    expect(output).toContain('set DB_URL to a mysql:// or mariadb:// URL');
    // an operator's mistake, reported without a stack trace
    expect(output).not.toMatch(/\n\s+at /);
  }, 40_000);
});
