/**
 * The build step of `npm start`, `npm run migrate`, `npm run token` and the test legs (scripts/build-if-stale.js)
 * says what a command waits for: a line before it builds (a first build, or sources changed since the last) and
 * the build's duration after; nothing at all when dist is current. It runs here on a project of its own in a
 * temporary folder, whose `build` script writes the entry files: the real build takes a minute and replaces the
 * dist/ that the other suites of this leg run.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { BUILT } from '../../scripts/build-if-stale';

const ROOT = resolve(__dirname, '../..');
const ENTRY_FILES = BUILT.map((file) => relative(ROOT, file));

let project: string;
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'build-step-'));
  mkdirSync(join(project, 'scripts'));
  copyFileSync(join(ROOT, 'scripts/build-if-stale.js'), join(project, 'scripts/build-if-stale.js'));
  const build = `for (const f of ${JSON.stringify(ENTRY_FILES)}) { fs.mkdirSync(path.dirname(f), { recursive: true }); fs.writeFileSync(f, ''); }`;
  writeFileSync(join(project, 'build.js'), `const fs = require('node:fs'); const path = require('node:path');\n${build}\n`);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'build-step', private: true, scripts: { build: 'node build.js' } }));
  for (const source of ['apps/app/src/main.ts', 'libs/lib/src/index.ts']) {
    mkdirSync(dirname(join(project, source)), { recursive: true });
    writeFileSync(join(project, source), 'export {};\n');
  }
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

const buildStep = () =>
  promisify(execFile)(process.execPath, [join(project, 'scripts/build-if-stale.js')], { cwd: project }).then(({ stdout, stderr }) => ({
    stdout,
    stderr,
  }));

describe('the build step (scripts/build-if-stale.js)', () => {
  it('says it builds on a first run, and how long it took', async () => {
    const { stdout, stderr } = await buildStep();
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^building the services \(first run, a minute or two\)…\nbuilt in \d+ s\n$/);
    expect(ENTRY_FILES.filter((file) => !existsSync(join(project, file)))).toEqual([]);
  });

  it('prints nothing when dist is current', async () => {
    expect(await buildStep()).toEqual({ stdout: '', stderr: '' });
  });

  it('says the sources changed when one is newer than the build', async () => {
    const later = Date.now() / 1000 + 5;
    utimesSync(join(project, 'libs/lib/src/index.ts'), later, later);
    const { stdout, stderr } = await buildStep();
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^sources changed: rebuilding the services \(a minute or two\)…\nbuilt in \d+ s\n$/);
  });
});
