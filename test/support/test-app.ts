import 'reflect-metadata';
import { AppHttpAdapter, AppLogging, configureApp, OutboxRelay, ServiceDescription } from '@app/common';
import { Type } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AppModule, MAIN_SERVICE } from '../../apps/main-service/src/app.module';
import { createTestDatabase, TestDatabase } from './database';
import { bearer, Claims, TEST_JWT_SECRET } from './tokens';

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

export interface Envelope<T = any> {
  timestamp: number;
  status: number;
  error: string | null;
  localizedError: string | null;
  path: string | null;
  extraData: Record<string, any>;
  data: T;
  httpStatus: number;
}

export const CONFIG = '/main-service/system-api/configuration';

/** Which app a test boots: its root module and its service description (prefix, OpenAPI). */
export interface ServiceUnderTest {
  module: Type<unknown>;
  service: ServiceDescription;
}

export const MAIN_SERVICE_UNDER_TEST: ServiceUnderTest = { module: AppModule, service: MAIN_SERVICE };

export interface StartOptions {
  /** Receives the app's JSON log lines instead of standard output (set LOG_LEVEL in `env` to see more than faults). */
  logTo?: { write(line: string): void };
}

/**
 * Boots a service (main-service unless `target` says otherwise) in-process on a fresh database:
 * in-memory SQLite, or (DB_URL set) a new MySQL/MariaDB database with the service's checked-in migrations
 * applied (or on `shared`, which the caller creates and drops).
 */
export async function startApp(env: Record<string, string> = {}, options: StartOptions & { target?: ServiceUnderTest; shared?: TestDatabase } = {}): Promise<TestApp> {
  const target = options.target ?? MAIN_SERVICE_UNDER_TEST;
  // a shared database (several app instances over one database) is created and dropped by its owner
  const database = options.shared ?? (await createTestDatabase());
  const saved = { ...process.env };
  Object.assign(process.env, { JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'fatal' }, database.env, env);
  let app: NestExpressApplication;
  try {
    const moduleRef = await Test.createTestingModule({ imports: [target.module] }).compile();
    const created = moduleRef.createNestApplication<NestExpressApplication>(new AppHttpAdapter(), { bodyParser: false, logger: ['error', 'warn'] });
    if (options.logTo) created.get(AppLogging).captureTo(options.logTo);
    app = configureApp(created, target.service);
    const dataSource = app.get(DataSource);
    if (database.env.DB_URL) await dataSource.runMigrations();
    await app.init();
  } finally {
    process.env = saved;
  }
  const server = app.getHttpServer();
  const http = () => request(server);
  const envelope = (res: request.Response): Envelope => ({ ...res.body, httpStatus: res.status });
  const relay = app.get(OutboxRelay);
  return {
    app,
    dataSource: app.get(DataSource),
    http,
    auth: (claims) => bearer(claims),
    post: async (path, body, claims) => envelope(await http().post(path).set('Authorization', bearer(claims)).send(body as object)),
    get: async (path, claims) => envelope(await http().get(path).set('Authorization', bearer(claims))),
    put: async (path, body, claims) => envelope(await http().put(path).set('Authorization', bearer(claims)).send(body as object)),
    del: async (path, claims) => envelope(await http().delete(path).set('Authorization', bearer(claims))),
    drainOutbox: async () => {
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
