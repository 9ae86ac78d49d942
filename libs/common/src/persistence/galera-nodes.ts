import { Logger } from '@nestjs/common';
import { connect, Socket } from 'node:net';
import * as mysql2 from 'mysql2';
import type { RowDataPacket } from 'mysql2';

/** One node of DB_HOSTS. */
export interface DbNode {
  host: string;
  port: number;
}

/** How often every node's readiness is asked again (a down node is noticed sooner, by a refused connection). */
export const NODE_PROBE_MS = 1000;
/** A probe that takes longer than this counts as a node that cannot answer. */
const PROBE_TIMEOUT_MS = 3000;
/**
 * Probes in a row without an answer before a node is taken out: one slow answer (a busy machine, a long stall of the
 * event loop) is no outage. A node that says it is not ready, or refuses a connection, is taken out at once.
 */
const SILENT_PROBES = 2;

/** DB_HOSTS (`host:port,host:port`) as nodes, in the operator's order. */
export function parseDbHosts(hosts: string): DbNode[] {
  return hosts
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const at = entry.lastIndexOf(':');
      return { host: entry.slice(0, at), port: Number(entry.slice(at + 1)) };
    });
}

export const nodeName = (node: DbNode): string => `${node.host}:${node.port}`;

/**
 * What a server's status says of its readiness: one that is not a Galera node (wsrep_on OFF) is ready whenever it
 * answers; a Galera node only while wsrep_ready is ON and it is Synced (wsrep_local_state 4): a joining, donor or
 * non-primary node refuses statements (1047) or serves stale data. Undefined when ready, else the reason.
 */
export function notReadyReason(status: Record<string, string>): string | undefined {
  if ((status.wsrep_on ?? 'OFF').toUpperCase() !== 'ON') return undefined;
  if ((status.wsrep_ready ?? '').toUpperCase() !== 'ON') return 'wsrep_ready is OFF';
  if (status.wsrep_local_state !== '4') return `wsrep_local_state is ${status.wsrep_local_state ?? 'unknown'}, not 4 (Synced)`;
  return undefined;
}

/** The statements that read a server's readiness (notReadyReason); each row is a name and its value. */
export const READINESS_SQL = [
  "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_ready', 'wsrep_local_state')",
  "SHOW GLOBAL VARIABLES LIKE 'wsrep_on'",
];

export const statusOf = (rows: RowDataPacket[]): Record<string, string> =>
  Object.fromEntries(rows.map((row) => [String(row.Variable_name).toLowerCase(), String(row.Value)]));

/**
 * The nodes of a MariaDB Galera cluster (DB_HOSTS) and which of them may be used now. Every node is asked for its
 * readiness each NODE_PROBE_MS (a connection of its own, closed after the two SHOW statements); a node that refuses
 * a connection is taken out at once. New pool connections go to the preferred node (DB_URL's) while it is ready, else
 * to the first ready one in DB_HOSTS order (`socket`, mysql2's `stream` option); with none ready they fail at once as
 * refused, which the service answers 503 "storage unavailable". `generation` changes whenever the ready set does, so
 * the pool checks again, once each, the connections it already holds (ready-nodes.ts).
 */
export class GaleraNodes {
  private readonly logger = new Logger('Database');
  private readonly reasons = new Map<string, string | undefined>();
  /** Probes in a row each node left unanswered. */
  private readonly silent = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private probing?: Promise<void>;
  private inUse?: string;
  generation = 0;

  constructor(
    readonly nodes: DbNode[],
    private readonly preferred: DbNode | undefined,
    private readonly login: { user?: string; password?: string },
  ) {
    // until the first probe answers, every node is taken for ready: the first connections try the preferred one
    for (const node of nodes) this.reasons.set(nodeName(node), undefined);
  }

  /** The nodes of DB_HOSTS with DB_URL's user, password and host (the preferred node); probes started. */
  static of(dbHosts: string, dbUrl: string): GaleraNodes {
    const url = new URL(dbUrl.replace(/^mariadb:/, 'mysql:'));
    const preferred = { host: url.hostname, port: Number(url.port || 3306) };
    const nodes = parseDbHosts(dbHosts);
    const login = { user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) || undefined };
    const cluster = new GaleraNodes(
      nodes,
      nodes.find((node) => nodeName(node) === nodeName(preferred)),
      login,
    );
    cluster.start();
    return cluster;
  }

  /** Starts the probes: one round now, then every NODE_PROBE_MS (unref'd: they never keep the process alive). */
  start(): void {
    void this.probe();
    this.timer ??= setInterval(() => void this.probe(), NODE_PROBE_MS).unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.probing;
  }

  /** The node new connections go to now; undefined when none is ready. */
  pick(): DbNode | undefined {
    const ready = (node: DbNode) => this.reasons.get(nodeName(node)) === undefined;
    const chosen = this.preferred && ready(this.preferred) ? this.preferred : this.nodes.find(ready);
    const name = chosen && nodeName(chosen);
    if (name !== this.inUse) {
      if (name) this.logger.log(`database node ${name} in use`);
      else this.logger.error(`no database node of DB_HOSTS is ready (${this.describe()})`);
      this.inUse = name;
    }
    return chosen;
  }

  /** Whether the node (by name) may be used now, for the metrics. */
  isReady(name: string): boolean {
    return this.reasons.has(name) && this.reasons.get(name) === undefined;
  }

  /** The node in use, for log lines and metrics ("none" while no node is ready). */
  current(): string {
    return this.inUse ?? 'none';
  }

  /** mysql2's `stream` option: a socket to the node in use, or one that fails at once as refused. */
  socket(): Socket {
    const node = this.pick();
    if (!node) {
      const refused = new Socket();
      const error = Object.assign(new Error('no database node of DB_HOSTS is ready'), { code: 'ECONNREFUSED' });
      process.nextTick(() => refused.destroy(error));
      return refused;
    }
    const socket = connect(node.port, node.host);
    socket.setNoDelay(true);
    // refused or unreachable: out until a probe finds it ready again, so the next connection tries another node
    let connected = false;
    socket.once('connect', () => {
      connected = true;
      socket.setKeepAlive(true); // as mysql2 does for the sockets it opens itself (enableKeepAlive)
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (!connected) this.mark(node, `connection failed (${error.code ?? error.message})`);
    });
    return socket;
  }

  /** A node found not ready by a pooled connection's check (ready-nodes.ts). */
  mark(node: DbNode | string, reason: string | undefined): void {
    const name = typeof node === 'string' ? node : nodeName(node);
    const before = this.reasons.get(name);
    if (before === reason) return;
    this.reasons.set(name, reason);
    if ((before === undefined) !== (reason === undefined)) {
      this.generation++;
      if (reason) this.logger.warn(`database node ${name} not ready: ${reason}`);
      else this.logger.log(`database node ${name} ready`);
    }
  }

  private describe(): string {
    return [...this.reasons].map(([name, reason]) => `${name}: ${reason ?? 'ready'}`).join('; ');
  }

  private probe(): Promise<void> {
    this.probing ??= Promise.all(this.nodes.map((node) => this.probeNode(node))).then(
      () => void this.pick(),
      () => undefined,
    );
    return this.probing.finally(() => (this.probing = undefined));
  }

  private async probeNode(node: DbNode): Promise<void> {
    const connection = mysql2.createConnection({ ...node, ...this.login, connectTimeout: PROBE_TIMEOUT_MS });
    connection.on('error', () => undefined); // a fatal error also fails the pending query, which says it
    const ask = (sql: string) =>
      new Promise<RowDataPacket[]>((resolve, reject) => {
        connection.query<RowDataPacket[]>({ sql, timeout: PROBE_TIMEOUT_MS }, (error, rows) => (error ? reject(error) : resolve(rows)));
      });
    const name = nodeName(node);
    try {
      const rows = (await Promise.all(READINESS_SQL.map(ask))).flat();
      this.silent.set(name, 0);
      this.mark(node, notReadyReason(statusOf(rows)));
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      const silent = (this.silent.get(name) ?? 0) + 1;
      this.silent.set(name, silent);
      if (e.code === 'ECONNREFUSED' || silent >= SILENT_PROBES) this.mark(node, `no answer (${e.code ?? e.message})`);
    } finally {
      connection.destroy();
    }
  }
}
