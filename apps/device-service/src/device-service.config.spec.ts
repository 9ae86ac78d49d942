import { AuthConfig, Environment, readConfig } from '@app/common';
import { DeviceServiceConfig } from './device-service.config';

/** docs/configuration.md: device-service's own variables, their defaults, and start-up refusing a bad one by name. */
describe('device-service configuration', () => {
  const config = (env: Environment = {}) => ({ device: readConfig(DeviceServiceConfig, env), auth: readConfig(AuthConfig, env) });
  const c = config();

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

  it('new secret hashes cost 2^14 unless DEVICE_SECRET_HASH_COST says otherwise, within 10 to 17', () => {
    expect(config().device.deviceSecretHashCost).toBe(14);
    expect(config({ DEVICE_SECRET_HASH_COST: '17' }).device.deviceSecretHashCost).toBe(17);
    for (const bad of ['9', '18', '12.5', 'high'])
      expect(() => config({ DEVICE_SECRET_HASH_COST: bad })).toThrow('DEVICE_SECRET_HASH_COST');
  });

  it('reads DEVICE_TOKEN_SECRET', () => {
    expect(config({ DEVICE_TOKEN_SECRET: 'another-production-secret' }).device.deviceTokenSecret).toBe('another-production-secret');
  });
});
