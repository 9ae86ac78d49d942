const { availableParallelism } = require('node:os');
const { coresBusy, cpuTimes } = require('./scripts/lib/cores-busy');

// SWC compiles TypeScript (with decorator metadata) and the ESM-only packages of NestJS 12, which
// Jest on Node 20 cannot require() natively.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];

/** The cores other processes keep busy as Jest starts, over a tenth of a second. */
function coresBusyElsewhere() {
  const before = cpuTimes();
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100); // sleeps 100 ms
  return coresBusy(before, cpuTimes());
}
const cores = availableParallelism();

const esmPackages = ['@nestjs', 'file-type', 'load-esm', 'strtok3', 'token-types', '@tokenizer', '@borewit', 'uint8array-extras', 'jose'];

module.exports = {
  rootDir: __dirname,
  roots: ['<rootDir>/test', '<rootDir>/libs', '<rootDir>/apps'],
  testRegex: '\\.spec\\.ts$',
  // own legs: test/timing measures how late the event loop answers (npm run test:timing, never beside other suites);
  // test/processes runs the built services as processes (npm run test:processes, after the build); test/browser
  // drives Swagger UI in Chromium (npm run test:browser)
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/timing/', '<rootDir>/test/processes/', '<rootDir>/test/browser/'],
  // Node's environment, which also disables the async local storages a test file enabled once it is done
  testEnvironment: '<rootDir>/test/support/jest/environment.ts',
  // Jest's runtime, keeping a module's compiled code, transformed source and resolutions for the worker's next files
  runtime: '<rootDir>/test/support/jest/worker-cached-runtime.js',
  // a folder for the run, where one worker keeps what the others can reuse (SQLite schema images, OpenAPI documents)
  globalSetup: '<rootDir>/test/support/jest/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/jest/global-teardown.ts',
  // the files that took longest last time first; without a duration, the end-to-end files by the size of their cases
  testSequencer: '<rootDir>/test/support/jest/sequencer.js',
  setupFiles: ['reflect-metadata', '<rootDir>/test/support/test-environment.ts'],
  // testTimeout below, grown with the machine's load when each file starts
  setupFilesAfterEnv: ['<rootDir>/test/support/jest/scaled-timeouts.ts'],
  transform: { '^.+\\.[tj]s$': swc },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  // relative imports written with the .js of the built file (what Node's import() needs) resolve to the TypeScript source
  moduleNameMapper: { '^@app/common(|/.*)$': '<rootDir>/libs/common/src$1', '^(\\.{1,2}/.*)\\.js$': '$1' },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // on a quiet machine (test/support/jest/scaled-timeouts.ts sets it per file, grown with the load)
  testTimeout: 30000,
  // more workers than cores: many e2e cases wait on timers and sockets (slow clients, outbox drains), and another
  // file's work fills those waits; beside other work (a core or more busy) one per core: as fast, with less CPU and
  // memory, and each file gets more of a core for its hooks and tests
  maxWorkers: coresBusyElsewhere() >= 1 ? cores : Math.ceil(cores * 1.5),
  // a worker holds about a gigabyte when the run ends, and the process took 0.7-0.9 s to exit on a two-core VM with
  // no handle left open; past jest's 500 ms default it is killed and reported as leaking
  workerGracefulExitTimeout: 3000,
};
