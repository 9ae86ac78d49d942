/**
 * Jest's order of test files, with two corrections.
 * - Jest runs the files it has timings for longest first, but orders files it has no timing for (a fresh
 *   clone, a new machine) by file size. The standard-crud spec files are a few lines that run the longest
 *   suites of all, and a group spec (`imports.spec.ts` running the cases of the folder `imports/` beside it)
 *   is small too: untimed, a group counts its folder's bytes, and the standard-crud files go first.
 * - The files that measure how late the event loop answers (they use support/live-poller) must not run
 *   beside each other on the two workers: the first of them starts with the standard-crud files, the others
 *   come after those, by which time it has ended.
 */
const Sequencer = require('@jest/test-sequencer').default;
const { readdirSync, readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');

const STANDARD_CRUD = /[\\/]standard-crud-[^\\/]+\.spec\.ts$/;
const LIVE_POLLER = /support\/live-poller/;

/** Bytes of the files under a folder (0 when there is none). */
function folderBytes(dir) {
  try {
    return readdirSync(dir, { recursive: true }).reduce((sum, name) => {
      const stat = statSync(join(dir, name));
      return sum + (stat.isFile() ? stat.size : 0);
    }, 0);
  } catch {
    return 0;
  }
}

class TestOrder extends Sequencer {
  sort(tests) {
    const weight = (test) => statSync(test.path).size + folderBytes(test.path.replace(/\.spec\.ts$/, ''));
    const sorted = super.sort(tests);
    // untimed files first, as Jest runs them, but heaviest first by their weight
    const untimed = sorted.filter((test) => test.duration == null).sort((a, b) => weight(b) - weight(a));
    const ordered = [...untimed, ...sorted.filter((test) => test.duration != null)];
    const polling = ordered.filter((test) => LIVE_POLLER.test(readFileSync(test.path, 'utf8')));
    const standard = ordered.filter((test) => STANDARD_CRUD.test(test.path));
    const rest = ordered.filter((test) => !polling.includes(test) && !standard.includes(test));
    return [...polling.slice(0, 1), ...standard, ...polling.slice(1), ...rest];
  }
}

module.exports = TestOrder;
