import { availableParallelism, loadavg } from 'node:os';

/** The most a budget grows: past it, a test or hook that has not finished is taken to hang. */
const MAX_SLOWDOWN = 4;

/**
 * How much slower than on a quiet machine a test runs now, from 1 to MAX_SLOWDOWN: the processes waiting for a core
 * over the last minute, per core. The suite's own workers (1.5 per core) count too, so a quiet run reads about 1.5.
 */
export function machineSlowdown(): number {
  return Math.min(MAX_SLOWDOWN, Math.max(1, loadavg()[0] / availableParallelism()));
}

/**
 * The time budget of a test or hook that needs `ms` on a quiet machine, given as its timeout: on a busy machine
 * (other processes beside the suite) it grows with the load, so a slow start or a long sweep is not taken for a hang.
 */
export const budget = (ms: number): number => Math.round(ms * machineSlowdown());
