// Jest's order of test files, with a better guess for files it has no duration for.
//
// Jest runs the files that took longest last time first, so no worker is left with a long file at the end. A file
// it has no duration for (a fresh clone, as on CI, or a changed configuration) it ranks by its size; but an
// end-to-end spec file is a few lines that import its cases or a shared suite, so the longest files of the run would
// start last. Without durations, the end-to-end files go ahead of the unit files: first the table-driven suites
// (describeStandardCrud: every concern for every resource of a group, the longest), by the size of their group's
// table, then the others by the size of their cases (test/e2e/<name>/).
const { readdirSync, readFileSync, statSync } = require('node:fs');
const { basename, dirname, join, sep } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const E2E = `${sep}test${sep}e2e${sep}`;

/** The bytes of every file under `dir` (none when it does not exist). */
function folderSize(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  return entries.reduce((sum, entry) => {
    const path = join(dir, entry.name);
    return sum + (entry.isDirectory() ? folderSize(path) : statSync(path).size);
  }, 0);
}

/** The table-driven suite's group (describeStandardCrud('<group>')) an end-to-end spec file runs, if any. */
function standardGroupOf(path) {
  return /describeStandardCrud\('([a-z-]+)'\)/.exec(readFileSync(path, 'utf8'))?.[1];
}

/** An end-to-end spec file's rank (lower first) and weight (larger first, within a rank). */
function e2eOrder(path) {
  const group = standardGroupOf(path);
  if (group) return { rank: 0, weight: statSync(join(dirname(path), '..', 'support', 'tables', `${group}.ts`)).size };
  return { rank: 1, weight: statSync(path).size + folderSize(join(dirname(path), basename(path, '.spec.ts'))) };
}

class LongestFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const orders = new Map();
    for (const test of sorted)
      if (test.duration == null && test.path.includes(E2E) && !this.hasFailed(test)) orders.set(test, e2eOrder(test.path));
    if (orders.size === 0) return sorted;
    const e2e = [...orders.keys()].sort((a, b) => orders.get(a).rank - orders.get(b).rank || orders.get(b).weight - orders.get(a).weight);
    // as Jest: the files that failed last time first
    const failed = sorted.filter((test) => this.hasFailed(test));
    return [...failed, ...e2e, ...sorted.filter((test) => !orders.has(test) && !this.hasFailed(test))];
  }
}

module.exports = LongestFirstSequencer;
