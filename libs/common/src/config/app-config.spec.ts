import { AppConfig } from './app-config';

describe('AppConfig', () => {
  it('has the defaults of DESIGN §2', () => {
    const c = new AppConfig({}, { port: 8080 });
    expect(c).toMatchObject({
      port: 8080, dbUrl: undefined, sqliteDir: './data', kafkaBrokers: undefined, defaultTenantId: 'default', trustProxy: 'loopback',
      pageSizeMax: 1000, listLimitMax: 10000, listCacheTtlMs: 60000, usesDevJwtSecret: true, saveMissingEnabled: true,
    });
    expect(c.cloudServiceNodes).toEqual([{ name: 'local', domain: 'http://localhost:8080', region: 'local' }]);
  });

  it('reads the environment', () => {
    const c = new AppConfig(
      { PORT: '3000', DB_URL: 'mysql://u:p@db:3306/bo', KAFKA_BROKERS: 'a:9092, b:9092', PAGE_SIZE_MAX: '50', SAVE_MISSING_ENABLED: 'false', JWT_SECRET: 'a-long-enough-secret',
        CLOUD_SERVICE_NODES: '[{"name":"east","domain":"https://e.example.com","region":"cn-east"}]' },
      { port: 1 },
    );
    expect(c).toMatchObject({ port: 3000, dbUrl: 'mysql://u:p@db:3306/bo', kafkaBrokers: ['a:9092', 'b:9092'], pageSizeMax: 50, saveMissingEnabled: false, usesDevJwtSecret: false });
    expect(c.cloudServiceNodes[0].domain).toBe('https://e.example.com');
  });

  it.each([
    ['PAGE_SIZE_MAX', { PAGE_SIZE_MAX: 'lots' }],
    ['DB_URL', { DB_URL: 'postgres://x/y' }],
    ['JWT_SECRET', { JWT_SECRET: 'short' }],
    ['PORT', { PORT: '70000' }],
    ['CLOUD_SERVICE_NODES', { CLOUD_SERVICE_NODES: '[{"name":"x"}]' }],
    ['CLOUD_SERVICE_NODES', { CLOUD_SERVICE_NODES: 'not json' }],
  ])('a bad %s stops start-up with a message naming it', (name, env) => {
    expect(() => new AppConfig(env, { port: 1 })).toThrow(name);
  });
});
