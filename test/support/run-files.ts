import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDirectory } from './jest/run-directory';

/** The file `name` of the test run's folder, if the run has one (see jest/run-directory.ts). */
function runFile(name: string): string | undefined {
  const dir = runDirectory();
  return dir && join(dir, name);
}

/** What another test file of the run kept under `name`, if any. */
export function readRunFile(name: string): Buffer | undefined {
  const file = runFile(name);
  if (!file) return undefined;
  try {
    return readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Keeps `content` under `name` for the run's other test files; a reader sees all of it or nothing. */
export function writeRunFile(name: string, content: string | Buffer): void {
  const file = runFile(name);
  if (!file) return;
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, content);
  renameSync(partial, file);
}
