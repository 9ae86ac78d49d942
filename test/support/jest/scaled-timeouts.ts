// Per test file: the default timeout of its tests and hooks (jest.config.js testTimeout) grows with the machine's
// load when the file starts (time-budget.ts).
import { budget } from '../time-budget';

/** jest.config.js testTimeout: a test's or hook's default timeout on a quiet machine. */
const QUIET_TIMEOUT_MS = 30_000;

jest.setTimeout(budget(QUIET_TIMEOUT_MS));
