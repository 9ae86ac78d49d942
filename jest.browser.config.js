// The browser leg (npm run test:browser): the suites of test/browser, which drive Swagger UI of the built embedded
// server in headless Chromium (puppeteer-core; Chromium from CHROMIUM_PATH or /usr/bin/chromium, e.g. Debian's
// `apt-get install chromium`). They need the build, which the script makes first; `npm test` needs neither.
const base = require('./jest.config');

module.exports = { ...base, roots: ['<rootDir>/test/browser'], testPathIgnorePatterns: ['/node_modules/'], maxWorkers: 1 };
