// The benchmarks' server processes: free ports, starting a server and waiting until it answers,
// stopping it, and the CPU time a process (or the database server) has used.
import { execFileSync, spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** utime + stime of a process in clock ticks (/proc/<pid>/stat fields 14 and 15). */
export const cpuTicks = (pid) => {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
};

/** The database server's process on this machine, when there is one (its CPU is reported too). */
export const databasePid = () => {
  for (const name of ['mariadbd', 'mysqld']) {
    try {
      return Number(execFileSync('pgrep', ['-x', '-o', name]).toString().trim()) || null;
    } catch {
      /* not this name */
    }
  }
  return null;
};

/** Waits until `url` answers 2xx (up to `waitSeconds`). */
export async function waitForAnswer(url, waitSeconds = 60) {
  for (let i = 0; !(await fetch(url).catch(() => null))?.ok; i++) {
    if (i > waitSeconds * 2) throw new Error(`${url} did not answer`);
    await sleep(500);
  }
}

/**
 * Starts `node <args>` under the Node that runs the benchmark, with its standard output (where the
 * services write their log lines) to `<logDir>/<name>.log`, or to /dev/null without a logDir, and
 * waits until `readyUrl` answers 2xx (up to four minutes: a loaded shared machine starts them slowly).
 */
export async function startNode(name, args, { env, readyUrl, logDir, waitSeconds = 240 }) {
  const stdout = openSync(logDir ? join(logDir, `${name}.log`) : '/dev/null', 'w');
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', stdout, 'inherit'] });
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    if ((await fetch(readyUrl).catch(() => null))?.ok) return child;
    if (i > waitSeconds * 2) {
      await stop(child);
      throw new Error(`${name} did not start`);
    }
    await sleep(500);
  }
}

export async function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
}
