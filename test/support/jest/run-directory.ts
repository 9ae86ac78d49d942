import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A folder of the whole test run, shared by its workers: what one worker built for every test file of the run
 * (a service's SQLite schema image, an OpenAPI document per configuration) is kept here for the others. Made
 * empty when the run starts (Jest's globalSetup) and removed when it ends (globalTeardown). Its name also tells the
 * worker-cached runtime which run it serves (worker-cached-runtime.js reads the variable itself).
 */
export const RUN_DIRECTORY_VARIABLE = 'BACK_OFFICE_TEST_RUN_DIR';

/** The run's folder; undefined when the run did not make one (a configuration without the global setup). */
export const runDirectory = (): string | undefined => process.env[RUN_DIRECTORY_VARIABLE] || undefined;

/** globalSetup: the workers start after it and inherit the variable. */
export function makeRunDirectory(): void {
  process.env[RUN_DIRECTORY_VARIABLE] = mkdtempSync(join(tmpdir(), 'back-office-test-run-'));
}

/** globalTeardown. */
export function removeRunDirectory(): void {
  const dir = runDirectory();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
