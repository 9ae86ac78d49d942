import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { Request, Response } from 'express';
import { registeredRoute, ResourceRouters } from './resource-routers';

describe('ResourceRouters', () => {
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    const app = express();
    const routers = new ResourceRouters(app);
    const label = (req: Request, res: Response) => res.json({ route: registeredRoute(req) ?? null });
    routers.register('post', ['/svc/things/save', label]);
    routers.register('get', ['/svc/things/getById', label]);
    // no literal parent: stays on the app, after the routers
    routers.register('get', ['/:a/:b/zz/x', label]);
    server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const routeOf = async (method: string, path: string) =>
    ((await (await fetch(origin + path, { method })).json()) as { route: string }).route;

  it('serves each route from its resource router, labelled by the path it was registered with', async () => {
    expect(await routeOf('POST', '/svc/things/save')).toBe('/svc/things/save');
    expect(await routeOf('GET', '/svc/things/getById')).toBe('/svc/things/getById');
  });

  it('labels a request spelled in another case by the registered path, not by the spelling', async () => {
    expect(await routeOf('GET', '/SVC/Things/GETBYID')).toBe('/svc/things/getById');
  });

  it("labels an app route reached after passing through a resource router by the app route's own path", async () => {
    expect(await routeOf('GET', '/svc/things/zz/x')).toBe('/:a/:b/zz/x');
  });
});
