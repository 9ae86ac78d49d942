#!/usr/bin/env node
/**
 * Runs `npm run build` only when dist/ is missing or older than the sources, so commands that need the
 * built services (`npm run token`, the tests that start them as processes) don't rebuild on every run
 * yet still work on a fresh clone. Sources: every .ts/.js/.json file under apps/ and libs/, and the
 * compiler settings. Built: the entry files of the three apps (the build rewrites all of dist at once).
 * Usage: `node scripts/build-if-stale.js` (prints nothing when dist is current, else what it builds and how long
 * that took, on stderr); or require() it.
 */
const { execFileSync } = require('node:child_process');
const { readdirSync, rmSync, statSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const SOURCE_DIRS = ['apps', 'libs'];
const SOURCE_FILE = /\.(ts|js|json)$/;
const SETTINGS = ['nest-cli.json', 'tsconfig.base.json', 'tsconfig.json'];
const BUILT = ['local/src/local.js', 'main-service/src/main.js', 'main-service/src/mint-token.js', 'device-service/src/main.js'].map((f) =>
  join(ROOT, 'dist/apps', f),
);

const mtimeOrNull = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
};

/** Newest modification time of the sources (0 when there are none). */
function newestSource() {
  let newest = Math.max(0, ...SETTINGS.map((f) => mtimeOrNull(join(ROOT, f)) ?? 0));
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (SOURCE_FILE.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of SOURCE_DIRS) walk(join(ROOT, dir));
  return newest;
}

/** Why dist must be built: `missing` (an entry file is absent: a first run), `changed` (a source is newer), or null. */
function staleness() {
  const built = BUILT.map(mtimeOrNull);
  if (built.some((t) => t === null)) return 'missing';
  return Math.min(...built) < newestSource() ? 'changed' : null;
}

/** True when dist lacks an entry file or one is older than a source. */
const isStale = () => staleness() !== null;

/** What is printed before a build, so a command that seems to hang says what it waits for. */
const BUILDING = {
  missing: 'building the services (first run, a minute or two)…',
  changed: 'sources changed: rebuilding the services (a minute or two)…',
};

/**
 * Builds when stale; returns whether it built. The build's output and the progress lines go to stderr (stdout
 * may carry a minted token); with `quiet`, nothing is printed and the build's output goes into the error
 * thrown when it fails.
 */
function buildIfStale({ quiet = false } = {}) {
  const why = staleness();
  if (!why) return false;
  const started = Date.now();
  if (!quiet) process.stderr.write(`${BUILDING[why]}\n`);
  try {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: quiet ? 'pipe' : ['ignore', 2, 2], timeout: 600_000 });
  } catch (error) {
    // tsc emits even when it reports type errors: without the entry files the next run builds again
    for (const file of BUILT) rmSync(file, { force: true });
    throw error;
  }
  if (!quiet) process.stderr.write(`built in ${Math.round((Date.now() - started) / 1000)} s\n`);
  return true;
}

module.exports = { buildIfStale, isStale, BUILT };

if (require.main === module) {
  try {
    buildIfStale();
  } catch (error) {
    process.exit(error.status || 1); // the build already printed why
  }
}
