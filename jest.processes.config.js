// The processes leg (npm run test:processes): the suites of test/processes, which run the built services and
// tools as an operator does (start-up failures and lines, SIGTERM with requests in flight, a start without the
// optional SQLite driver, npm start's build step, the dev token command). They need the build, which the
// script makes first; the in-process suites of `npm test` do not.
const base = require('./jest.config');

module.exports = { ...base, roots: ['<rootDir>/test/processes'], testPathIgnorePatterns: ['/node_modules/'] };
