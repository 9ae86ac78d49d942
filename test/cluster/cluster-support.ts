/**
 * The local cluster of scripts/cluster.sh, as the cluster suites see it: the gateway (CLUSTER_URL) and
 * each replica's own port, read from the harness's state (.cluster/env). The suites run only when
 * CLUSTER_URL is set (the cluster leg of .ci/run); elsewhere they are reported as skipped.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { IncomingMessage, request } from 'node:http';
import { createServer, Server } from 'node:net';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { sign } from 'jsonwebtoken';

const STATE = join(__dirname, '../../.cluster');
/** How long a suite waits for the other cluster suites to be done with the cluster. */
const CLUSTER_WAIT_MS = 15 * 60_000;

/**
 * Takes the cluster for one suite. The suites share one cluster, and two of them restart replicas: a
 * suite running meanwhile (jest's default of two workers, or `npm test` with CLUSTER_URL set) would call a
 * replica that is down or draining. The lock is an abstract Unix socket named after the gateway, which
 * the kernel frees when its holder ends, however it ends.
 */
async function holdCluster(gateway: string): Promise<Server> {
  for (;;) {
    const lock = createServer();
    const held = await new Promise<boolean>((resolve, reject) => {
      lock.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error)));
      lock.listen(`\0backoffice-cluster-suite ${gateway}`, () => resolve(true));
    });
    if (held) return lock;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** describe for a cluster suite: skipped without CLUSTER_URL, else run while it holds the cluster alone. */
export function describeCluster(name: string, suite: () => void): void {
  if (!process.env.CLUSTER_URL) return describe.skip(name, suite);
  describe(name, () => {
    let lock: Server | undefined;
    beforeAll(async () => {
      lock = await holdCluster(process.env.CLUSTER_URL!);
    }, CLUSTER_WAIT_MS);
    afterAll(() => new Promise<void>((done) => (lock ? lock.close(() => done()) : done())));
    suite();
  });
}

const GATEWAY_LOG = join(STATE, 'nginx/error.log');

/** Where the gateway's error log ends now (see gatewayErrorsSince). */
export const gatewayLogEnd = (): number => statSync(GATEWAY_LOG).size;

/** The gateway's error-log lines written since `from`: why it could not reach an upstream (answered as its own 503 envelope). */
export const gatewayErrorsSince = (from: number): string[] =>
  readFileSync(GATEWAY_LOG)
    .subarray(from)
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => `gateway: ${line}`);

export interface Cluster {
  gateway: string;
  /** Base URLs of main-service replica 1 and 2, then device-service's. */
  main: string[];
  device: string[];
  jwtSecret: string;
  /** Whether main-service runs on Kafka (scripts/kafka.sh) rather than the in-process bus (CLUSTER_KAFKA=0). */
  kafka: boolean;
  /** main-service's database (mysql: URL): `cluster` on the server of the harness's CLUSTER_DB_URL. */
  mainDatabase: string;
  /** The Zipkin the replicas send their traces to (ZIPKIN_URL of scripts/cluster.sh), if any. */
  zipkin?: string;
}

/** One of the harness's NAME=value files under .cluster/ (env, settings). */
const readState = (file: string): Record<string, string> =>
  Object.fromEntries(
    readFileSync(join(STATE, file), 'utf8')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => {
        const at = line.indexOf('=');
        return [line.slice(0, at), line.slice(at + 1).replace(/^"|"$/g, '')];
      }),
  );

export function cluster(): Cluster {
  const state = readState('env');
  const urls = (ports: string) => ports.split(' ').map((port) => `http://127.0.0.1:${port}`);
  return {
    gateway: process.env.CLUSTER_URL!,
    main: urls(state.CLUSTER_MAIN_PORTS),
    device: urls(state.CLUSTER_DEVICE_PORTS),
    jwtSecret: state.CLUSTER_JWT_SECRET,
    kafka: state.CLUSTER_KAFKA !== '0',
    mainDatabase: `${readState('settings').CLUSTER_DB_URL.replace(/^mariadb:/, 'mysql:')}/cluster`,
    zipkin: state.CLUSTER_ZIPKIN || undefined,
  };
}

export interface Answer {
  http: number;
  status?: number;
  data?: unknown;
  extraData?: Record<string, unknown>;
  /** The envelope's English `error` (null on success). */
  error?: string | null;
  retryAfter: string | null;
}

/**
 * One call, on a connection of its own; JSON body when given. A kept-alive connection would make the
 * client's own race part of the result: nginx's old workers close their idle client connections on a
 * reload (cluster.sh restart), and a request sent on one at that moment fails without reaching a server.
 */
export async function call(
  url: string,
  init: { method?: string; token?: string; body?: unknown; forwardedFor?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  if (init.forwardedFor) headers['X-Forwarded-For'] = init.forwardedFor;
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  if (payload !== undefined) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(payload));
  }
  const method = init.method ?? (payload === undefined ? 'GET' : 'POST');
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, resolve);
    req.on('error', reject);
    req.end(payload);
  });
  const answer = await text(res);
  const body = answer.startsWith('{') ? JSON.parse(answer) : {};
  const retryAfter = res.headers['retry-after'] ?? null;
  return { http: res.statusCode ?? 0, status: body.status, data: body.data, extraData: body.extraData, error: body.error, retryAfter };
}

/**
 * An administrator's token of a tenant, signed as the cluster verifies. Each suite takes a tenant of its
 * own (unique): the cluster's database outlives a run, and a tenant that every run writes to would pass
 * LIST_LIMIT_MAX rows, past which its listCache no longer holds the newest.
 */
export function token(secret: string, tenantId: string): string {
  return sign({ sub: 'cluster-tester', tenantId, roles: ['administrator'], permissions: [] }, secret, {
    algorithm: 'HS256',
    expiresIn: 600,
  });
}

/** Unique per call across runs (the cluster's database outlives a run). */
export const unique = (prefix: string): string => `${prefix}${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

/** A client address no earlier run used (10.0.0.0/8), so each limit test starts from zero. */
export const freshAddress = (): string => `10.${[...randomBytes(3)].join('.')}`;
