// The timing leg (npm run test:timing): the suites of test/timing, which measure how late the event loop
// answers while heavy work runs. Run alone, on a machine not busy with other tests.
const base = require('./jest.config');

module.exports = { ...base, roots: ['<rootDir>/test/timing'], testPathIgnorePatterns: ['/node_modules/'], maxWorkers: 1 };
