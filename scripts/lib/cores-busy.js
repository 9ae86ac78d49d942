// @ts-check
const { cpus } = require('node:os');

/** The machine's CPU time so far, idle and all, over every core. */
function cpuTimes() {
  let idle = 0;
  let all = 0;
  for (const { times } of cpus()) {
    idle += times.idle;
    all += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, all };
}

/**
 * How many cores were busy on average between two cpuTimes() readings. Measured, not read from the load average,
 * which still counts work that ended up to a minute ago.
 * @param {{ idle: number, all: number }} before
 * @param {{ idle: number, all: number }} after
 */
const coresBusy = (before, after) => cpus().length * (1 - (after.idle - before.idle) / Math.max(1, after.all - before.all));

module.exports = { cpuTimes, coresBusy };
