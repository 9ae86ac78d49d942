/**
 * The local cluster of scripts/cluster.sh, as the cluster suites see it: the gateway (CLUSTER_URL) and
 * each replica's own port, read from the harness's state (.cluster/env). The suites run only when
 * CLUSTER_URL is set (the cluster leg of .ci/run); elsewhere they are reported as skipped.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sign } from 'jsonwebtoken';

export const describeCluster = process.env.CLUSTER_URL ? describe : describe.skip;

export interface Cluster {
  gateway: string;
  /** Base URLs of main-service replica 1 and 2, then device-service's. */
  main: string[];
  device: string[];
  jwtSecret: string;
}

export function cluster(): Cluster {
  const state = Object.fromEntries(
    readFileSync(join(__dirname, '../../.cluster/env'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => {
        const at = line.indexOf('=');
        return [line.slice(0, at), line.slice(at + 1).replace(/^"|"$/g, '')];
      }),
  );
  const urls = (ports: string) => ports.split(' ').map((port) => `http://127.0.0.1:${port}`);
  return {
    gateway: process.env.CLUSTER_URL!,
    main: urls(state.CLUSTER_MAIN_PORTS),
    device: urls(state.CLUSTER_DEVICE_PORTS),
    jwtSecret: state.CLUSTER_JWT_SECRET,
  };
}

export interface Answer {
  http: number;
  status?: number;
  data?: unknown;
  extraData?: Record<string, unknown>;
  retryAfter: string | null;
}

/** One call; JSON body when given. */
export async function call(
  url: string,
  init: { method?: string; token?: string; body?: unknown; forwardedFor?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  if (init.forwardedFor) headers['X-Forwarded-For'] = init.forwardedFor;
  const res = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  const body = text.startsWith('{') ? JSON.parse(text) : {};
  return { http: res.status, status: body.status, data: body.data, extraData: body.extraData, retryAfter: res.headers.get('retry-after') };
}

/** An administrator's token of a tenant, signed as the cluster verifies. */
export function token(secret: string, tenantId = 'cluster-tenant'): string {
  return sign({ sub: 'cluster-tester', tenantId, roles: ['administrator'], permissions: [] }, secret, {
    algorithm: 'HS256',
    expiresIn: 600,
  });
}

/** Unique per call across runs (the cluster's database outlives a run). */
export const unique = (prefix: string): string => `${prefix}${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

/** A client address no earlier run used (10.0.0.0/8), so each limit test starts from zero. */
export const freshAddress = (): string => `10.${[...randomBytes(3)].join('.')}`;
