/**
 * "Try it out" in Swagger UI: for every save operation of both documents, the body Swagger UI builds from
 * the schema (each property's example, else its default, else the first enum value, else a value of its
 * type) is accepted, and accepted again when sent a second time, wherever the resource has no business
 * key (with one, the second save may answer 422 "exists").
 */
import { DeviceTestApp, startDeviceApp } from '../../support/device-app';
import { Envelope, startApp, TestApp } from '../../support/test-app';
import type { Json } from '../../support/json';
import { swaggerUiSample } from '../../support/openapi-walk';

interface SaveOperation {
  path: string;
  body: Json;
  /** The operation documents 422 (a business key): a second save of the same body may be refused. */
  keyed: boolean;
}

function saveOperations(doc: Json): SaveOperation[] {
  return Object.entries(doc.paths as Json)
    .filter(([path, item]) => path.endsWith('/save') && item.post)
    .map(([path, item]) => {
      const op = item.post;
      const examples = Object.values(op.responses?.['200']?.content?.['application/json']?.examples ?? {}) as Json[];
      return {
        path,
        body: swaggerUiSample(doc, op.requestBody?.content?.['application/json']?.schema) as Json,
        keyed: examples.some((e) => e.value?.status === 422),
      };
    });
}

const outcome = (res: Envelope) => ({ status: res.status, error: res.error, data: res.data });

describe('Swagger UI "Try it out" of every save, twice', () => {
  let main: TestApp;
  let device: DeviceTestApp;
  const saves: { app: () => TestApp; op: SaveOperation }[] = [];

  beforeAll(async () => {
    [main, device] = await Promise.all([startApp(), startDeviceApp()]);
    for (const op of saveOperations((await main.http().get('/main-service/v3/api-docs')).body)) saves.push({ app: () => main, op });
    for (const op of saveOperations((await device.http().get('/device-service/v3/api-docs')).body)) saves.push({ app: () => device, op });
  });
  afterAll(async () => {
    await Promise.all([main?.close(), device?.close()]);
  });

  it('finds the save operations of both documents (31 in main-service, the 2 registry saves in device-service)', () => {
    expect(saves.filter((s) => s.op.path.startsWith('/main-service/'))).toHaveLength(31);
    expect(
      saves
        .filter((s) => s.op.path.startsWith('/device-service/'))
        .map((s) => s.op.path)
        .sort(),
    ).toEqual([
      '/device-service/system-api/device/data-acquisition-device/save',
      '/device-service/system-api/device/data-acquisition-server/save',
    ]);
  });

  it('accepts each example body, and again a second time unless the resource has a business key', async () => {
    const refused: Json[] = [];
    for (const { app, op } of saves) {
      const first = outcome(await app().post(op.path, op.body));
      const second = outcome(await app().post(op.path, op.body));
      if (first.status !== 200) refused.push({ path: op.path, attempt: 1, ...first, body: op.body });
      const secondOk = second.status === 200 || (op.keyed && second.status === 422);
      if (!secondOk) refused.push({ path: op.path, attempt: 2, keyed: op.keyed, ...second });
    }
    expect(refused).toEqual([]);
  });
});
