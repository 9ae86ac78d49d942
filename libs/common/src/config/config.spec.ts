import { generateKeyPairSync } from 'node:crypto';
import { ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { AuthConfig } from './auth.config';
import { CrudConfig } from './crud.config';
import { DatabaseConfig } from './database.config';
import { DeviceServiceConfig } from './device-service.config';
import { ConfigClass, Environment, readConfig } from './environment';
import { DISPATCH_CONCURRENCY, MainServiceConfig } from './main-service.config';
import { MessagingConfig } from './messaging.config';
import { ServerConfig } from './server.config';
import { ServiceConfigModule } from './service-config.module';

/** README "Configuration": the environment contract, its defaults, and start-up refusing a bad variable by name. */
describe('configuration namespaces', () => {
  /** Every namespace of either service, read from one environment with the service's default PORT. */
  const config = (env: Environment = {}, port = 3000) => {
    const read = <T extends object>(type: ConfigClass<T>): T => readConfig(type, env, { PORT: String(port) });
    return {
      server: read(ServerConfig),
      database: read(DatabaseConfig),
      messaging: read(MessagingConfig),
      auth: read(AuthConfig),
      crud: read(CrudConfig),
      main: read(MainServiceConfig),
      device: read(DeviceServiceConfig),
    };
  };

  describe('defaults (README "Configuration")', () => {
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

    it('DEVICE_TOKEN_SECRET has a development value distinct from the JWT secret', () => {
      expect(c.device.deviceTokenSecret.length).toBeGreaterThanOrEqual(16);
      expect(c.device.deviceTokenSecret).not.toBe(c.auth.jwtSecret);
    });

    it('device tokens live 24 h; 5 failed secrets per number within 15 min lock it (docs/decisions.md)', () => {
      expect(c.device.usesDevDeviceTokenSecret).toBe(true);
      expect(c.device.deviceTokenTtlSeconds).toBe(86400);
      expect(c.device.deviceSecretMaxFailures).toBe(5);
      expect(c.device.deviceSecretLockoutMs).toBe(900_000);
      const set = config({
        DEVICE_TOKEN_SECRET: 'a-production-device-secret',
        DEVICE_TOKEN_TTL_SECONDS: '60',
        DEVICE_SECRET_MAX_FAILURES: '3',
        DEVICE_SECRET_LOCKOUT_SECONDS: '30',
      }).device;
      expect([set.usesDevDeviceTokenSecret, set.deviceTokenTtlSeconds, set.deviceSecretMaxFailures, set.deviceSecretLockoutMs]).toEqual([
        false,
        60,
        3,
        30_000,
      ]);
      for (const name of ['DEVICE_TOKEN_TTL_SECONDS', 'DEVICE_SECRET_MAX_FAILURES', 'DEVICE_SECRET_LOCKOUT_SECONDS'])
        for (const bad of ['0', '-1', 'soon', '1.5']) expect(() => config({ [name]: bad })).toThrow(name);
    });

    it('CLOUD_SERVICE_NODES is one local node', () => {
      expect(c.main.cloudServiceNodes).toHaveLength(1);
      expect(c.main.cloudServiceNodes[0]).toEqual({ name: expect.any(String), domain: expect.any(String), region: expect.any(String) });
      expect(c.main.cloudServiceNodes[0].domain).toMatch(/localhost|127\.0\.0\.1/);
    });

    it('TRUST_PROXY is `loopback`', () => {
      expect(c.server.trustProxy).toBe('loopback');
    });

    it('PAGE_SIZE_MAX is 1000 and LIST_LIMIT_MAX 10000', () => {
      expect(c.crud.pageSizeMax).toBe(1000);
      expect(c.crud.listLimitMax).toBe(10000);
    });

    it('the local node points at this service; listCache TTL 60 s; saveMissing on (decisions.md, docs/decisions.md)', () => {
      expect(config({}, 8080).main.cloudServiceNodes).toEqual([{ name: 'local', domain: 'http://localhost:8080', region: 'local' }]);
      expect(config({ PORT: '8081' }, 3000).main.cloudServiceNodes[0].domain).toBe('http://localhost:8081');
      expect(c.crud.listCacheTtlMs).toBe(60_000);
      expect(c.main.saveMissingEnabled).toBe(true);
    });

    it('treats empty variables as unset', () => {
      const e = config({
        PORT: '',
        DB_URL: '',
        PAGE_SIZE_MAX: '',
        LIST_LIMIT_MAX: '',
        CLOUD_SERVICE_NODES: '',
        KAFKA_BROKERS: '',
        DEFAULT_TENANT_ID: '',
      });
      expect({
        port: e.server.port,
        dbUrl: e.database.dbUrl,
        pageSizeMax: e.crud.pageSizeMax,
        listLimitMax: e.crud.listLimitMax,
        nodes: e.main.cloudServiceNodes.length,
        kafka: e.messaging.kafkaBrokers,
        tenant: e.crud.defaultTenantId,
      }).toEqual({
        port: 3000,
        dbUrl: undefined,
        pageSizeMax: 1000,
        listLimitMax: 10000,
        nodes: 1,
        kafka: undefined,
        tenant: 'default',
      });
    });
  });

  describe('values that are set', () => {
    it('reads every variable of README "Configuration"', () => {
      const nodes = [
        { name: 'east', domain: 'https://east.example.com', region: 'cn-east' },
        { name: 'west', domain: 'https://west.example.com', region: 'cn-west' },
      ];
      const c = config({
        PORT: '8081',
        DB_URL: 'mysql://user:pass@db.example.com:3306/backoffice',
        SQLITE_DIR: '/var/lib/bo',
        KAFKA_BROKERS: 'k1:9092, k2:9092',
        JWT_SECRET: 'a-production-secret-of-some-length',
        DEFAULT_TENANT_ID: 'root-tenant',
        DEVICE_TOKEN_SECRET: 'another-production-secret',
        CLOUD_SERVICE_NODES: JSON.stringify(nodes),
        TRUST_PROXY: '10.0.0.0/8',
        PAGE_SIZE_MAX: '50',
        LIST_LIMIT_MAX: '500',
        SAVE_MISSING_ENABLED: 'false',
      });
      expect(c).toMatchObject({
        server: { port: 8081, trustProxy: '10.0.0.0/8' },
        database: { dbUrl: 'mysql://user:pass@db.example.com:3306/backoffice', sqliteDir: '/var/lib/bo' },
        messaging: { kafkaBrokers: ['k1:9092', 'k2:9092'] },
        auth: { jwtSecret: 'a-production-secret-of-some-length', usesDevJwtSecret: false },
        crud: { defaultTenantId: 'root-tenant', pageSizeMax: 50, listLimitMax: 500 },
        device: { deviceTokenSecret: 'another-production-secret' },
        main: { cloudServiceNodes: nodes, saveMissingEnabled: false },
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

    it.each([
      'not json',
      '{"name":"a","domain":"d","region":"r"}',
      '[]',
      '[{"name":"a"}]',
      '[{"name":"a","domain":"","region":"r"}]',
      '[{"name":1,"domain":"d","region":"r"}]',
      '[null]',
      '"a string"',
    ])('CLOUD_SERVICE_NODES=%j', (value) => refused({ CLOUD_SERVICE_NODES: value }, 'CLOUD_SERVICE_NODES'));

    it.each(['0', '70000', 'http'])('PORT=%j', (value) => refused({ PORT: value }, 'PORT'));

    it('JWT_SECRET shorter than 16 characters', () => refused({ JWT_SECRET: 'short' }, 'JWT_SECRET'));

    it.each(['has space', 'a/b', 'x'.repeat(101)])('KAFKA_TOPIC_PREFIX=%j', (value) =>
      refused({ KAFKA_TOPIC_PREFIX: value }, 'KAFKA_TOPIC_PREFIX'),
    );

    it('names every bad variable of a namespace, each once, with what it must be', () => {
      expect(() => readConfig(CrudConfig, { PAGE_SIZE_MAX: '0', LIST_LIMIT_MAX: 'many' })).toThrow(
        'Invalid configuration:\n  PAGE_SIZE_MAX: must not be less than 1\n  LIST_LIMIT_MAX: must not be less than 1, must be an integer number',
      );
    });
  });

  describe('KAFKA_TOPIC_PREFIX', () => {
    it('is empty by default and taken as given otherwise', () => {
      expect(config().messaging.kafkaTopicPrefix).toBe('');
      expect(config({ KAFKA_TOPIC_PREFIX: 'staging.' }).messaging.kafkaTopicPrefix).toBe('staging.');
    });
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

    it('METRICS_ENABLED defaults to true; only true/false', () => {
      expect(config().server.metricsEnabled).toBe(true);
      expect(config({ METRICS_ENABLED: 'false' }).server.metricsEnabled).toBe(false);
      expect(config({ METRICS_ENABLED: 'TRUE' }).server.metricsEnabled).toBe(true);
      expect(() => config({ METRICS_ENABLED: 'maybe' })).toThrow('METRICS_ENABLED');
    });
  });

  describe('message delivery', () => {
    it('defaults: enabled, 5 attempts, backoff from 30 s, polling every 5 s', () => {
      expect(config().main).toMatchObject({
        dispatchEnabled: true,
        dispatchMaxRetries: 5,
        dispatchRetryBaseMs: 30_000,
        dispatchPollMs: 5_000,
      });
    });

    it('takes valid values and refuses others, naming the variable', () => {
      expect(
        config({ DISPATCH_ENABLED: 'false', DISPATCH_MAX_RETRIES: '2', DISPATCH_RETRY_BASE_MS: '50', DISPATCH_POLL_MS: '20' }).main,
      ).toMatchObject({
        dispatchEnabled: false,
        dispatchMaxRetries: 2,
        dispatchRetryBaseMs: 50,
        dispatchPollMs: 20,
      });
      expect(() => config({ DISPATCH_ENABLED: 'yes' })).toThrow('DISPATCH_ENABLED');
      for (const bad of ['0', '-1', '1.5', '101', 'many'])
        expect(() => config({ DISPATCH_MAX_RETRIES: bad })).toThrow('DISPATCH_MAX_RETRIES');
      for (const bad of ['0', '3600001', 'soon']) expect(() => config({ DISPATCH_RETRY_BASE_MS: bad })).toThrow('DISPATCH_RETRY_BASE_MS');
      for (const bad of ['9', '600001', 'often']) expect(() => config({ DISPATCH_POLL_MS: bad })).toThrow('DISPATCH_POLL_MS');
    });

    it('fairness: tenant cap below the replica workers, breaker failures and pause, SMTP timeout', () => {
      expect(config().main).toMatchObject({
        dispatchTenantInFlightMax: 4,
        dispatchBreakerFailures: 5,
        dispatchBreakerPauseMs: 30_000,
        dispatchSmtpTimeoutMs: 5_000,
      });
      const env = {
        DISPATCH_TENANT_IN_FLIGHT_MAX: String(DISPATCH_CONCURRENCY - 1),
        DISPATCH_BREAKER_FAILURES: '2',
        DISPATCH_BREAKER_PAUSE_MS: '100',
        DISPATCH_SMTP_TIMEOUT_MS: '250',
      };
      expect(config(env).main).toMatchObject({
        dispatchTenantInFlightMax: DISPATCH_CONCURRENCY - 1,
        dispatchBreakerFailures: 2,
        dispatchBreakerPauseMs: 100,
        dispatchSmtpTimeoutMs: 250,
      });
      const refused: Record<string, string[]> = {
        DISPATCH_TENANT_IN_FLIGHT_MAX: ['0', String(DISPATCH_CONCURRENCY), '2.5', 'all'],
        DISPATCH_BREAKER_FAILURES: ['0', '101', 'some'],
        DISPATCH_BREAKER_PAUSE_MS: ['9', '3600001', 'long'],
        DISPATCH_SMTP_TIMEOUT_MS: ['49', '60001', 'slow'],
      };
      for (const [name, values] of Object.entries(refused)) for (const bad of values) expect(() => config({ [name]: bad })).toThrow(name);
    });
  });

  describe('delivery destinations', () => {
    it('DELIVERY_ALLOWED_HOSTS: empty by default; a comma list of host names and addresses; anything else refused, naming it', () => {
      expect(config().main.deliveryAllowedHosts).toEqual([]);
      expect(config({ DELIVERY_ALLOWED_HOSTS: ' 127.0.0.1, mail-relay.mail.svc ,::1,relay,' }).main.deliveryAllowedHosts).toEqual([
        '127.0.0.1',
        'mail-relay.mail.svc',
        '::1',
        'relay',
      ]);
      for (const bad of ['smtp://relay', '10.0.0.0/8', 'relay:25', 'two words', '*.svc'])
        expect(() => config({ DELIVERY_ALLOWED_HOSTS: bad })).toThrow('DELIVERY_ALLOWED_HOSTS');
    });
  });

  describe('one service (ServiceConfigModule)', () => {
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

    it('injects each namespace by its class and registers it with @nestjs/config', async () => {
      const app = await service({ DEVICE_TOKEN_TTL_SECONDS: '60' }, [DeviceServiceConfig]);
      expect(app.get(ServerConfig).port).toBe(3001);
      expect(app.get(DeviceServiceConfig).deviceTokenTtlSeconds).toBe(60);
      expect(app.get(ConfigService).get('server')).toBe(app.get(ServerConfig));
      expect(app.get(ConfigService).get('device-service.deviceTokenTtlSeconds')).toBe(60);
      await app.close();
    });

    it('validates the shared namespaces and its own only: device-service does not read DISPATCH_*, main-service not DEVICE_*', async () => {
      const device = await service({ DISPATCH_POLL_MS: 'often' }, [DeviceServiceConfig]);
      expect(() => device.get(MainServiceConfig)).toThrow();
      await device.close();
      const main = await service({ DEVICE_TOKEN_TTL_SECONDS: 'soon' }, [MainServiceConfig], 3000);
      expect(main.get(MainServiceConfig).dispatchPollMs).toBe(5000);
      await main.close();
      await expect(service({ DISPATCH_POLL_MS: 'often' }, [MainServiceConfig], 3000)).rejects.toThrow('DISPATCH_POLL_MS');
      await expect(service({ LOG_LEVEL: 'loud' }, [DeviceServiceConfig])).rejects.toThrow('LOG_LEVEL');
    });
  });
});
