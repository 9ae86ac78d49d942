import { DeviceTestApp, startDeviceApp } from './device-app';
import type { Json } from './json';
import { startApp, TestApp } from './test-app';

/** Both services, started for the describe that calls this, and their OpenAPI documents (filled in its beforeAll). */
export interface ServiceDocuments {
  docs: Record<string, Json>;
  /** Runs `fn` on each service's document: an `it` body. */
  each(fn: (service: string, doc: Json) => void): () => void;
  main(): TestApp;
  device(): DeviceTestApp;
}

export function serviceDocuments(): ServiceDocuments {
  let main: TestApp;
  let device: DeviceTestApp;
  const docs: Record<string, Json> = {};
  beforeAll(async () => {
    [main, device] = await Promise.all([startApp(), startDeviceApp()]);
    docs['main-service'] = (await main.http().get('/main-service/v3/api-docs')).body;
    docs['device-service'] = (await device.http().get('/device-service/v3/api-docs')).body;
  });
  afterAll(async () => {
    await Promise.all([main?.close(), device?.close()]);
  });
  return {
    docs,
    each: (fn) => () => Object.entries(docs).forEach(([service, doc]) => fn(service, doc)),
    main: () => main,
    device: () => device,
  };
}
