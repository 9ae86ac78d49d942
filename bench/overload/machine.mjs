// What the overload figures were taken on, printed with them: CPU, cores, the load before the start, Node, MariaDB,
// the commit (and whether the tree had changes), and the benchmark's own child processes for its cleanup.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

const git = (root, args) => {
  try {
    return execFileSync('git', ['-C', root, ...args], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return null;
  }
};

export async function machine(admin, root) {
  const [[{ version }]] = await admin.query('SELECT VERSION() AS version');
  const changed = git(root, ['status', '--porcelain', '--', 'apps', 'libs']);
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
    node: process.version,
    mariadb: version,
    commit: git(root, ['rev-parse', '--short', 'HEAD']),
    changedSources: changed === null ? null : changed.split('\n').filter(Boolean).length,
  };
}

export const describeMachine = (m) =>
  `${m.cpu}, ${m.cores} cores; load average ${m.loadAverage.join(' ')} before the start; node ${m.node}; MariaDB ${m.mariadb}` +
  (m.commit ? `; commit ${m.commit}${m.changedSources ? ` with ${m.changedSources} changed files under apps/ and libs/` : ''}` : '');

/** This process's child processes still alive (services whose start was cut short included). */
export function childPids() {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid) pids.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return pids;
}
