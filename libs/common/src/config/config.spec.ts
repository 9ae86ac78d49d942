import { generateKeyPairSync } from 'node:crypto';
import { ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { AuthConfig } from './auth.config';
import { CrudConfig } from './crud.config';
import { DatabaseConfig } from './database.config';
import { IsInt, Min } from 'class-validator';
import { Type } from 'class-transformer';
import { ConfigClass, Env, Environment, readConfig } from './environment';
import { MessagingConfig } from './messaging.config';
import { ServerConfig } from './server.config';
import { configProblems, ServiceConfigModule } from './service-config.module';

/** docs/configuration.md: the environment contract, its defaults, and start-up refusing a bad variable by name. */
describe('configuration namespaces', () => {
  /** Every namespace of the library, read from one environment with the service's default PORT (the apps test their own). */
  const config = (env: Environment = {}, port = 3000) => {
    const read = <T extends object>(type: ConfigClass<T>): T => readConfig(type, env, { PORT: String(port) });
    return {
      server: read(ServerConfig),
      database: read(DatabaseConfig),
      messaging: read(MessagingConfig),
      auth: read(AuthConfig),
      crud: read(CrudConfig),
    };
  };

  describe('defaults (docs/configuration.md)', () => {
    const c = config();

    it('PORT defaults to the service default', () => {
      expect(c.server.port).toBe(3000);
      expect(config({}, 3001).server.port).toBe(3001);
      expect(config({}, 8080).server.port).toBe(8080);
    });

    it('storage is SQLite under ./data (DB_URL unset)', () => {
      expect(c.database.dbUrl).toBeUndefined();
      expect(c.database.sqliteDir).toBe('./data');
    });

    it('the in-process bus (KAFKA_BROKERS unset)', () => {
      expect(c.messaging.kafkaBrokers).toBeUndefined();
    });

    it('HS256 with a development secret, flagged as such; no RS256 key or JWKS', () => {
      expect(typeof c.auth.jwtSecret).toBe('string');
      expect(c.auth.jwtSecret.length).toBeGreaterThanOrEqual(16);
      expect(c.auth.usesDevJwtSecret).toBe(true);
      expect(c.auth.jwtPublicKey).toBeUndefined();
      expect(c.auth.jwtJwksUri).toBeUndefined();
    });

    it('DEFAULT_TENANT_ID is `default`', () => {
      expect(c.crud.defaultTenantId).toBe('default');
    });

    it('TRUST_PROXY is `loopback`', () => {
      expect(c.server.trustProxy).toBe('loopback');
    });

    it('PAGE_SIZE_MAX is 1000 and LIST_LIMIT_MAX 10000; listCache TTL 60 s (docs/decisions.md)', () => {
      expect(c.crud.pageSizeMax).toBe(1000);
      expect(c.crud.listLimitMax).toBe(10000);
      expect(c.crud.listCacheTtlMs).toBe(60_000);
    });

    it('treats empty variables as unset', () => {
      const e = config({
        PORT: '',
        DB_URL: '',
        PAGE_SIZE_MAX: '',
        LIST_LIMIT_MAX: '',
        KAFKA_BROKERS: '',
        DEFAULT_TENANT_ID: '',
      });
      expect({
        port: e.server.port,
        dbUrl: e.database.dbUrl,
        pageSizeMax: e.crud.pageSizeMax,
        listLimitMax: e.crud.listLimitMax,
        kafka: e.messaging.kafkaBrokers,
        tenant: e.crud.defaultTenantId,
      }).toEqual({
        port: 3000,
        dbUrl: undefined,
        pageSizeMax: 1000,
        listLimitMax: 10000,
        kafka: undefined,
        tenant: 'default',
      });
    });
  });

  describe('values that are set', () => {
    it('reads every shared variable of docs/configuration.md', () => {
      const c = config({
        PORT: '8081',
        DB_URL: 'mysql://user:pass@db.example.com:3306/backoffice',
        SQLITE_DIR: '/var/lib/bo',
        KAFKA_BROKERS: 'k1:9092, k2:9092',
        JWT_SECRET: 'a-production-secret-of-some-length',
        DEFAULT_TENANT_ID: 'root-tenant',
        TRUST_PROXY: '10.0.0.0/8',
        PAGE_SIZE_MAX: '50',
        LIST_LIMIT_MAX: '500',
      });
      expect(c).toMatchObject({
        server: { port: 8081, trustProxy: '10.0.0.0/8' },
        database: { dbUrl: 'mysql://user:pass@db.example.com:3306/backoffice', sqliteDir: '/var/lib/bo' },
        messaging: { kafkaBrokers: ['k1:9092', 'k2:9092'] },
        auth: { jwtSecret: 'a-production-secret-of-some-length', usesDevJwtSecret: false },
        crud: { defaultTenantId: 'root-tenant', pageSizeMax: 50, listLimitMax: 500 },
      });
    });

    it('accepts mysql:// and mariadb:// DB_URLs', () => {
      expect(config({ DB_URL: 'mysql://root@127.0.0.1:3306/test' }).database.dbUrl).toBe('mysql://root@127.0.0.1:3306/test');
      expect(config({ DB_URL: 'mariadb://root@127.0.0.1:3306/test' }).database.dbUrl).toBe('mariadb://root@127.0.0.1:3306/test');
    });

    it('an RS256 public key (newlines as \\n) is read as its PEM, and the development secret is not in use', () => {
      const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }) as string;
      const read = config({ JWT_PUBLIC_KEY: pem.replace(/\n/g, '\\n') }).auth;
      expect(read.jwtPublicKey).toBe(pem);
      expect(read.usesDevJwtSecret).toBe(false);
    });
  });

  describe('a bad variable stops start-up with an Error naming it', () => {
    const refused = (env: Record<string, string>, name: string) => {
      let error: unknown;
      try {
        config(env);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toContain(name);
    };

    it.each(['abc', '0', '-5', '1.5', '10x', 'NaN', 'Infinity'])('PAGE_SIZE_MAX=%j', (value) =>
      refused({ PAGE_SIZE_MAX: value }, 'PAGE_SIZE_MAX'),
    );

    it.each(['abc', '-----BEGIN PUBLIC KEY-----\\nabc\\n-----END PUBLIC KEY-----'])('JWT_PUBLIC_KEY=%j', (value) =>
      refused({ JWT_PUBLIC_KEY: value }, 'JWT_PUBLIC_KEY'),
    );

    it.each(['abc', '0', '-1', '2.5'])('LIST_LIMIT_MAX=%j', (value) => refused({ LIST_LIMIT_MAX: value }, 'LIST_LIMIT_MAX'));

    it.each([
      'postgres://u:p@host:5432/db',
      'not a url',
      'mysql://host:3306',
      'mysql://host:3306/',
      'mysql:/host/db',
      'sqlite://./data/db',
      'mysql://host/db name',
    ])('DB_URL=%j', (value) => refused({ DB_URL: value }, 'DB_URL'));

    it.each(['0', '70000', 'http'])('PORT=%j', (value) => refused({ PORT: value }, 'PORT'));

    it('JWT_SECRET shorter than 16 characters', () => refused({ JWT_SECRET: 'short' }, 'JWT_SECRET'));

    it.each(['has space', 'a/b', 'x'.repeat(101)])('KAFKA_TOPIC_PREFIX=%j', (value) =>
      refused({ KAFKA_TOPIC_PREFIX: value }, 'KAFKA_TOPIC_PREFIX'),
    );

    it('names every bad variable of a namespace, each once, with what it must be', () => {
      expect(() => readConfig(CrudConfig, { PAGE_SIZE_MAX: '0', LIST_LIMIT_MAX: 'many' })).toThrow(
        'Invalid configuration:\n  PAGE_SIZE_MAX: must not be less than 1\n  LIST_LIMIT_MAX: must be an integer number (given: "many")',
      );
    });

    it('a value that is not a number: that rule alone, with the value given (never for other values, which may be secrets)', () => {
      expect(() => readConfig(ServerConfig, { PORT: 'abc' })).toThrow(
        'Invalid configuration:\n  PORT: must be an integer number (given: "abc")',
      );
      expect(() => readConfig(AuthConfig, { JWT_SECRET: 'short-secret' })).toThrow(/JWT_SECRET: (?!.*short-secret)/);
    });
  });

  describe('KAFKA_TOPIC_PREFIX', () => {
    it('is empty by default and taken as given otherwise', () => {
      expect(config().messaging.kafkaTopicPrefix).toBe('');
      expect(config({ KAFKA_TOPIC_PREFIX: 'staging.' }).messaging.kafkaTopicPrefix).toBe('staging.');
    });
  });

  describe('KAFKA_TOPIC_REPLICATION_FACTOR', () => {
    it('is unset by default (derived from the cluster) and read as a count otherwise', () => {
      expect(config().messaging.kafkaTopicReplicationFactor).toBeUndefined();
      expect(config({ KAFKA_TOPIC_REPLICATION_FACTOR: '3' }).messaging.kafkaTopicReplicationFactor).toBe(3);
    });

    it.each(['0', '8', 'three', '1.5'])('refuses %j, naming the variable', (value) =>
      expect(() => config({ KAFKA_TOPIC_REPLICATION_FACTOR: value })).toThrow('KAFKA_TOPIC_REPLICATION_FACTOR'),
    );
  });

  describe('operations (docs/operations.md)', () => {
    it('SHUTDOWN_TIMEOUT_MS defaults to 10 s and takes a bounded integer', () => {
      expect(config().server.shutdownTimeoutMs).toBe(10_000);
      expect(config({ SHUTDOWN_TIMEOUT_MS: '2500' }).server.shutdownTimeoutMs).toBe(2500);
      for (const bad of ['0', '99', '-1', 'soon', '1.5', '600001'])
        expect(() => config({ SHUTDOWN_TIMEOUT_MS: bad })).toThrow('SHUTDOWN_TIMEOUT_MS');
    });

    it('HTTP_REQUEST_TIMEOUT_MS defaults to 90 s and takes an integer from 1 s to 10 min', () => {
      expect(config().server.requestTimeoutMs).toBe(90_000);
      expect(config({ HTTP_REQUEST_TIMEOUT_MS: '1000' }).server.requestTimeoutMs).toBe(1000);
      for (const bad of ['0', '999', '-1', 'slow', '1.5', '600001'])
        expect(() => config({ HTTP_REQUEST_TIMEOUT_MS: bad })).toThrow('HTTP_REQUEST_TIMEOUT_MS');
    });

    it('DB_STATEMENT_TIMEOUT_MS defaults to 30 s, below HTTP_REQUEST_TIMEOUT_MS, and takes an integer from 100 ms to 10 min', () => {
      expect(config().database.dbStatementTimeoutMs).toBe(30_000);
      expect(config().database.dbStatementTimeoutMs).toBeLessThan(config().server.requestTimeoutMs);
      expect(config({ DB_STATEMENT_TIMEOUT_MS: '100' }).database.dbStatementTimeoutMs).toBe(100);
      expect(config({ DB_STATEMENT_TIMEOUT_MS: '600000' }).database.dbStatementTimeoutMs).toBe(600_000);
      for (const bad of ['0', '99', '-1', 'never', '1.5', '600001'])
        expect(() => config({ DB_STATEMENT_TIMEOUT_MS: bad })).toThrow('DB_STATEMENT_TIMEOUT_MS');
    });

    it('METRICS_ENABLED defaults to true; only true/false', () => {
      expect(config().server.metricsEnabled).toBe(true);
      expect(config({ METRICS_ENABLED: 'false' }).server.metricsEnabled).toBe(false);
      expect(config({ METRICS_ENABLED: 'TRUE' }).server.metricsEnabled).toBe(true);
      expect(() => config({ METRICS_ENABLED: 'maybe' })).toThrow('METRICS_ENABLED');
    });
  });

  describe('one service (ServiceConfigModule)', () => {
    /** Two apps' own namespaces, as an app declares them beside its code. */
    class FirstAppConfig {
      static readonly namespace = 'first-app';
      @Env('FIRST_APP_POLL_MS') @Type(() => Number) @IsInt() @Min(10) firstAppPollMs = 5000;
    }
    class SecondAppConfig {
      static readonly namespace = 'second-app';
      @Env('SECOND_APP_TTL_SECONDS') @Type(() => Number) @IsInt() @Min(1) secondAppTtlSeconds = 86400;
    }

    /** The namespaces a service's app gets, read from `env` as its process environment while the module is created. */
    async function service(env: Environment, own: ConfigClass[], defaultPort = 3001) {
      const saved = process.env;
      process.env = { ...env };
      try {
        return await Test.createTestingModule({ imports: [ServiceConfigModule.forService({ defaultPort, config: own })] }).compile();
      } finally {
        process.env = saved;
      }
    }

    it("injects each namespace, shared or the app's own, by its class and registers it with @nestjs/config", async () => {
      const app = await service({ SECOND_APP_TTL_SECONDS: '60' }, [SecondAppConfig]);
      expect(app.get(ServerConfig).port).toBe(3001);
      expect(app.get(SecondAppConfig).secondAppTtlSeconds).toBe(60);
      expect(app.get(ConfigService).get('server')).toBe(app.get(ServerConfig));
      expect(app.get(ConfigService).get('second-app.secondAppTtlSeconds')).toBe(60);
      await app.close();
    });

    it("validates the shared namespaces and the app's own only, not another app's", async () => {
      const second = await service({ FIRST_APP_POLL_MS: 'often' }, [SecondAppConfig]);
      expect(() => second.get(FirstAppConfig)).toThrow();
      await second.close();
      const first = await service({ SECOND_APP_TTL_SECONDS: 'soon' }, [FirstAppConfig], 3000);
      expect(first.get(FirstAppConfig).firstAppPollMs).toBe(5000);
      await first.close();
      await expect(service({ FIRST_APP_POLL_MS: 'often' }, [FirstAppConfig], 3000)).rejects.toThrow('FIRST_APP_POLL_MS');
      await expect(service({ LOG_LEVEL: 'loud' }, [SecondAppConfig])).rejects.toThrow('LOG_LEVEL');
    });

    it("lists every bad variable at once, the app's own beside the shared ones (the start-up report)", () => {
      const env = { PORT: '0', FIRST_APP_POLL_MS: '1', SECOND_APP_TTL_SECONDS: '0' };
      expect(configProblems({ defaultPort: 3000, config: [FirstAppConfig] }, env)).toEqual([
        'PORT: must not be less than 1',
        'FIRST_APP_POLL_MS: must not be less than 10',
      ]);
    });
  });
});
