import { Environment, readConfig, ServerConfig } from '@app/common';
import { DISPATCH_CLAIM_LEASE_MS, DISPATCH_CONCURRENCY, MainServiceConfig } from './main-service.config';

/** docs/configuration.md: main-service's own variables, their defaults, and start-up refusing a bad one by name. */
describe('main-service configuration', () => {
  const config = (env: Environment = {}, port = 3000) => ({ main: readConfig(MainServiceConfig, env, { PORT: String(port) }) });

  describe('defaults and values', () => {
    const c = config();

    it('CLOUD_SERVICE_NODES is one local node', () => {
      expect(c.main.cloudServiceNodes).toHaveLength(1);
      expect(c.main.cloudServiceNodes[0]).toEqual({ name: expect.any(String), domain: expect.any(String), region: expect.any(String) });
      expect(c.main.cloudServiceNodes[0].domain).toMatch(/localhost|127\.0\.0\.1/);
    });

    it('the local node points at this service; saveMissing on (docs/decisions.md)', () => {
      expect(config({}, 8080).main.cloudServiceNodes).toEqual([{ name: 'local', domain: 'http://localhost:8080', region: 'local' }]);
      expect(config({ PORT: '8081' }, 3000).main.cloudServiceNodes[0].domain).toBe('http://localhost:8081');
      expect(c.main.saveMissingEnabled).toBe(true);
    });

    it('an empty CLOUD_SERVICE_NODES counts as unset', () => {
      expect(config({ CLOUD_SERVICE_NODES: '' }).main.cloudServiceNodes).toHaveLength(1);
    });

    it('reads CLOUD_SERVICE_NODES and SAVE_MISSING_ENABLED', () => {
      const nodes = [
        { name: 'east', domain: 'https://east.example.com', region: 'cn-east' },
        { name: 'west', domain: 'https://west.example.com', region: 'cn-west' },
      ];
      expect(config({ CLOUD_SERVICE_NODES: JSON.stringify(nodes), SAVE_MISSING_ENABLED: 'false' }).main).toMatchObject({
        cloudServiceNodes: nodes,
        saveMissingEnabled: false,
      });
    });

    it.each([
      'not json',
      '{"name":"a","domain":"d","region":"r"}',
      '[]',
      '[{"name":"a"}]',
      '[{"name":"a","domain":"","region":"r"}]',
      '[{"name":1,"domain":"d","region":"r"}]',
      '[null]',
      '"a string"',
    ])('CLOUD_SERVICE_NODES=%j', (value) => expect(() => config({ CLOUD_SERVICE_NODES: value })).toThrow('CLOUD_SERVICE_NODES'));
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

    it('the attempt deadline: 8 s, within the default shutdown timeout; at most a tenth of the claim lease, so no claim lapses under an attempt', () => {
      expect(config().main.dispatchAttemptTimeoutMs).toBe(8_000);
      expect(config().main.dispatchAttemptTimeoutMs).toBeLessThan(new ServerConfig().shutdownTimeoutMs);
      const longest = DISPATCH_CLAIM_LEASE_MS / 10;
      expect(config({ DISPATCH_ATTEMPT_TIMEOUT_MS: '50' }).main.dispatchAttemptTimeoutMs).toBe(50);
      expect(config({ DISPATCH_ATTEMPT_TIMEOUT_MS: String(longest) }).main.dispatchAttemptTimeoutMs).toBe(longest);
      for (const bad of ['49', String(longest + 1), String(DISPATCH_CLAIM_LEASE_MS), '1.5', 'never'])
        expect(() => config({ DISPATCH_ATTEMPT_TIMEOUT_MS: bad })).toThrow('DISPATCH_ATTEMPT_TIMEOUT_MS');
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
});
