import 'reflect-metadata';
import { AppHttpAdapter, AppLogging, configureApp, OutboxRelay, ServiceManifest } from '@app/common';
import { Type } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { Agent, request as httpRequest, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AppModule } from '../../apps/main-service/src/app.module';
import { MAIN_SERVICE } from '../../apps/main-service/src/main-service.manifest';
import { DeliveryResolver } from '../../apps/main-service/src/message/delivery/address-guard';
import { createTestDatabase, TestDatabase } from './database';
import { sharedDocument } from './shared-documents';
import { useSqliteTemplate } from './sqlite-template';
import { bearer, Claims, TEST_JWT_SECRET } from './tokens';
import type { Json } from './json';
import { TestResolver } from './test-resolver';
import { withProcessEnv } from './process-env';

export interface TestApp {
  app: NestExpressApplication;
  dataSource: DataSource;
  /** supertest bound to the app's HTTP server. */
  http: () => ReturnType<typeof request>;
  /** A Bearer header (administrator of tenant-a unless told otherwise). */
  auth: (claims?: Claims) => string;
  /** POST a JSON body with a token; resolves to the envelope. */
  post: (path: string, body: unknown, claims?: Claims) => Promise<Envelope>;
  get: (path: string, claims?: Claims) => Promise<Envelope>;
  put: (path: string, body: unknown, claims?: Claims) => Promise<Envelope>;
  del: (path: string, claims?: Claims) => Promise<Envelope>;
  /** Waits until every outbox row was handed to the bus and applied. */
  drainOutbox: () => Promise<void>;
  close: () => Promise<void>;
}

/** HTTP methods of the request helpers (supertest's method names). */
export type HttpVerb = 'get' | 'post' | 'put' | 'delete' | 'patch';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- `data` is typed by each test's assertions
export interface Envelope<T = any> {
  timestamp: number;
  status: number;
  error: string | null;
  localizedError: string | null;
  path: string | null;
  extraData: Json;
  data: T;
  httpStatus: number;
}

export const CONFIG = '/main-service/system-api/configuration';

/** Idle kept-alive connections close after this, well before the server's keep-alive timeout (5 s) could close one under a request. */
const IDLE_CONNECTION_MS = 1000;

/**
 * One listening socket and its kept-alive connections for every request of a test app. Left to itself,
 * supertest listens on a new port and opens a new connection for every request: over the suite's tens of
 * thousands of requests that filled the ephemeral port range with TIME_WAIT sockets, and every bind and
 * connect grew slower. (Specs that call `app.listen` themselves do so before their first request.)
 */
function listening(server: Server): Server {
  // without a host Node binds at once (with one it looks the host up first), so the address is known now
  if (!server.listening) server.listen(0);
  return server;
}

const ports = new WeakMap<Server, number>();

/** The app's port, asked of the socket once per listen (a spec may close and listen again). */
function portOf(server: Server): number {
  let port = ports.get(server);
  if (port === undefined) {
    ports.set(server, (port = (listening(server).address() as AddressInfo).port));
    server.once('close', () => ports.delete(server));
  }
  return port;
}

/** supertest on the app's socket, over the kept-alive connections. */
function keptAliveClient(server: Server, agent: Agent): () => ReturnType<typeof request> {
  return () => {
    const client = request(listening(server));
    return new Proxy(client, {
      get: (target, verb) => {
        const method: unknown = Reflect.get(target, verb);
        return typeof method === 'function'
          ? (...args: unknown[]) => (method as (...a: unknown[]) => request.Test).apply(target, args).agent(agent)
          : method;
      },
    });
  };
}

/**
 * The request helpers' client: one JSON request on the kept-alive connections, resolved to the envelope
 * and its HTTP status. Node's own client, not supertest: the table-driven suites send tens of thousands of
 * requests, and superagent's per-request machinery cost about as much as the app answering them.
 */
function envelopeClient(server: Server, agent: Agent) {
  return (method: string, path: string, authorization: string, body?: unknown): Promise<Envelope> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers: Record<string, string | number> = { authorization };
      if (payload !== undefined)
        Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
      const port = portOf(server);
      const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          try {
            const text = Buffer.concat(chunks).toString('utf8');
            const parsed: unknown = /\bjson\b/.test(res.headers['content-type'] ?? '') && text ? JSON.parse(text) : {};
            resolve({ ...(parsed as object), httpStatus: res.statusCode } as Envelope);
          } catch (error) {
            reject(error as Error);
          }
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
}

/**
 * The Bearer header of the request helpers, signed once per claims and reused for a minute (well inside
 * the token's 600 s lifetime): signing with a string secret costs jsonwebtoken a failed private-key parse
 * each time, which was an eighth of the table-driven suite's time. Clocks a test moves (fake timers) re-sign.
 */
const REUSE_TOKEN_MS = 60_000;
const signed = new Map<string, { header: string; at: number }>();
function cachedBearer(claims?: Claims): string {
  const key = JSON.stringify(claims ?? {});
  const now = Date.now();
  const hit = signed.get(key);
  if (hit && now >= hit.at && now - hit.at < REUSE_TOKEN_MS) return hit.header;
  const header = bearer(claims);
  signed.set(key, { header, at: now });
  return header;
}

/** Which app a test boots: its root module and its manifest (prefix, OpenAPI, configuration, schema). */
export interface ServiceUnderTest {
  module: Type<unknown>;
  service: ServiceManifest;
}

export const MAIN_SERVICE_UNDER_TEST: ServiceUnderTest = { module: AppModule, service: MAIN_SERVICE };

export interface StartOptions {
  /** Receives the app's JSON log lines instead of standard output (set LOG_LEVEL in `env` to see more than faults). */
  logTo?: { write(line: string): void };
  /** Leaves the MySQL/MariaDB database without its migrations (no tables), as a deployment whose migrations did not run. */
  skipMigrations?: boolean;
  /** Builds an in-memory SQLite schema from the entities instead of opening the run's copy (see sqlite-template.ts). */
  buildSchema?: boolean;
}

/** Listens on a loopback port of its own (for raw HTTP clients); resolves to the base URL. */
export async function listenOnLoopback(t: TestApp): Promise<string> {
  await t.app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
}

/**
 * Boots a service (main-service unless `target` says otherwise) in-process on a fresh database:
 * in-memory SQLite, or (DB_URL set) a new MySQL/MariaDB database with the service's checked-in migrations
 * applied (or on `shared`, which the caller creates and drops).
 */
export async function startApp(
  env: Record<string, string> = {},
  options: StartOptions & { target?: ServiceUnderTest; shared?: TestDatabase } = {},
): Promise<TestApp> {
  const target = options.target ?? MAIN_SERVICE_UNDER_TEST;
  // a shared database (several app instances over one database) is created and dropped by its owner
  const database = options.shared ?? (await createTestDatabase());
  const appEnv: Record<string, string> = { JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'fatal', ...database.env, ...env };
  const app = await withProcessEnv(appEnv, async () => {
    // an in-memory database opens as a copy of the service's schema, built once per run (sqlite-template.ts); set
    // here, where builds run one at a time, since it holds for every build until changed
    if (appEnv.SQLITE_DIR === ':memory:') await useSqliteTemplate(target.service, !options.buildSchema);
    const builder = Test.createTestingModule({ imports: [target.module] });
    // main-service's delivery looks host names up with the test resolver: never a DNS server
    if (target.module === AppModule) builder.overrideProvider(DeliveryResolver).useClass(TestResolver);
    const moduleRef = await builder.compile();
    const created = moduleRef.createNestApplication<NestExpressApplication>(new AppHttpAdapter(), {
      bodyParser: false,
      logger: ['error', 'warn'],
    });
    if (options.logTo) created.get(AppLogging).captureTo(options.logTo);
    const configured = configureApp(created, target.service, {
      documentOnFirstRequest: true,
      sharedDocument: sharedDocument(target.service.name, created),
    });
    if (database.env.DB_URL && !options.skipMigrations) await configured.get(DataSource).runMigrations();
    await configured.init();
    return configured;
  });
  const server = app.getHttpServer();
  const agent = new Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS });
  const http = keptAliveClient(server, agent);
  const send = envelopeClient(server, agent);
  return {
    app,
    dataSource: app.get(DataSource),
    http,
    auth: (claims) => bearer(claims),
    post: (path, body, claims) => send('POST', path, cachedBearer(claims), body),
    get: (path, claims) => send('GET', path, cachedBearer(claims)),
    put: (path, body, claims) => send('PUT', path, cachedBearer(claims), body),
    del: (path, claims) => send('DELETE', path, cachedBearer(claims)),
    drainOutbox: async () => {
      const relay = app.get(OutboxRelay); // main-service's (device-service has no messaging)
      for (let i = 0; i < 200; i++) {
        relay.kick();
        if ((await relay.backlog()) === 0) return;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('outbox did not drain');
    },
    close: async () => {
      await app.close();
      if (!options.shared) await database.drop();
    },
  };
}
