/**
 * Jest's order of test files, with one correction. Jest runs the files it has timings for longest first,
 * but orders files it has no timing for (a fresh clone, a new machine) by file size, and the per-group
 * standard-crud spec files are a few lines that run the longest suites of all: last, one worker would be
 * left with one of them while the other idles. Without timings they go first.
 */
const Sequencer = require('@jest/test-sequencer').default;

const THIN_BUT_LONG = /[\\/]standard-crud-[^\\/]+\.spec\.ts$/;

class ThinLongFilesFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const untimedLong = (test) => test.duration == null && THIN_BUT_LONG.test(test.path);
    return [...sorted.filter(untimedLong), ...sorted.filter((test) => !untimedLong(test))];
  }
}

module.exports = ThinLongFilesFirst;
