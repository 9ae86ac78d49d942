/**
 * FAST_PATHS: validated like every variable, on by default, and `off` really turns each fast path off:
 * class-validator's metadata storage is left as it comes, and the adapter leaves every route to Express's own router.
 */
import { withFastPaths } from '../../../../test/support/fast-paths-env';
import type { Express } from 'express';
import { getMetadataStorage } from 'class-validator';
import { checkConfig } from '../config/environment';
import { FastPathsConfig } from '../config/fast-paths.config';
import { SHARED_CONFIG } from '../config/service-config.module';
import { AppHttpAdapter } from '../http/server';
import { validationPipe } from '../http/validation';
import { fastPathsOn } from './fast-paths';

describe('FAST_PATHS', () => {
  it('is on by default, off with `off`, and a bad value is refused by name at start-up', () => {
    expect(fastPathsOn({})).toBe(true);
    expect(fastPathsOn({ FAST_PATHS: 'on' })).toBe(true);
    expect(fastPathsOn({ FAST_PATHS: 'off' })).toBe(false);
    expect(() => fastPathsOn({ FAST_PATHS: 'no' })).toThrow(/FAST_PATHS/);
    expect(SHARED_CONFIG).toContain(FastPathsConfig);
    expect(checkConfig(FastPathsConfig, { FAST_PATHS: 'no' }).problems).toEqual([expect.stringMatching(/^FAST_PATHS: /)]);
  });
});

describe('FAST_PATHS=off', () => {
  afterAll(() => jest.restoreAllMocks());

  it("leaves class-validator's metadata storage untouched", async () => {
    const storage = getMetadataStorage();
    const patched = () => Object.prototype.hasOwnProperty.call(storage, 'getTargetValidationMetadatas');
    await withFastPaths('off', () => validationPipe());
    expect(patched()).toBe(false);
    await withFastPaths('on', () => validationPipe());
    expect(patched()).toBe(true);
  });

  it("leaves every route to Express's own router", async () => {
    const routesOf = (value: 'on' | 'off') =>
      withFastPaths(value, () => {
        const adapter = new AppHttpAdapter();
        adapter.get('/svc/api/lamp/getById', () => undefined);
        adapter.post('/svc/api/lamp/save', () => undefined);
        const layers = (adapter.getInstance<Express>() as unknown as { router: { stack: { route?: { path: string }; handle: unknown }[] } })
          .router.stack;
        return {
          routes: layers.flatMap((layer) => (layer.route ? [layer.route.path] : [])),
          grouped: layers.some((layer) => (layer.handle as { name?: string }).name === 'dispatch'),
        };
      });
    expect(await routesOf('off')).toEqual({ routes: ['/svc/api/lamp/getById', '/svc/api/lamp/save'], grouped: false });
    expect(await routesOf('on')).toEqual({ routes: [], grouped: true });
  });
});
