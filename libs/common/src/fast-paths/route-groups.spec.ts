import type { Express, NextFunction, Request, Response } from 'express';
import { connect } from 'node:net';
import request from 'supertest';
import { AppHttpAdapter } from '../http/server';

// these cases test the grouping itself, which FAST_PATHS=off (a CI leg) turns off; each test file has its own process.env
process.env.FAST_PATHS = 'on';

type Handler = (req: Request, res: Response, next: NextFunction) => void;

/** Answers with what the route saw: the route as registered, the rest of the URL and the query. */
const echo =
  (name: string): Handler =>
  (req, res) =>
    void res.json({ name, route: `${req.baseUrl}${req.route?.path}`, url: req.url, originalUrl: req.originalUrl, query: req.query });

/** An adapter with routes registered the way Nest registers them (through the adapter's route methods). */
function appWith(register: (adapter: AppHttpAdapter, app: Express) => void): Express {
  const adapter = new AppHttpAdapter();
  const app = adapter.getInstance<Express>();
  register(adapter, app);
  app.use((req: Request, res: Response) => void res.status(404).json({ notFound: req.url, baseUrl: req.baseUrl }));
  return app;
}

describe('AppHttpAdapter route groups', () => {
  const app = appWith((adapter) => {
    adapter.get('/svc/api/thing/getById', echo('thing.getById'));
    adapter.post('/svc/api/thing/save', echo('thing.save'));
    adapter.get('/svc/api/other/getById', echo('other.getById'));
    adapter.get('/svc/api/thing/sub/list', echo('sub.list'));
  });

  it('answers each route from its own group, with baseUrl + route.path as registered and the query kept', async () => {
    const res = await request(app).get('/svc/api/thing/getById?id=7');
    expect(res.body).toEqual({
      name: 'thing.getById',
      route: '/svc/api/thing/getById',
      url: '/getById?id=7',
      originalUrl: '/svc/api/thing/getById?id=7',
      query: { id: '7' },
    });
    expect((await request(app).get('/svc/api/other/getById')).body.name).toBe('other.getById');
    expect((await request(app).get('/svc/api/thing/sub/list')).body.name).toBe('sub.list');
    expect((await request(app).post('/svc/api/thing/save')).body.name).toBe('thing.save');
  });

  it('matches as Express does: any case, one trailing slash, not two; the method must match', async () => {
    // the route as registered, not as the client spelled it (the metric label and log field come from it)
    expect((await request(app).get('/SVC/Api/THING/getbyid')).body).toMatchObject({
      name: 'thing.getById',
      route: '/svc/api/thing/getById',
    });
    expect((await request(app).get('/svc/api/thing/getById/')).body.name).toBe('thing.getById');
    expect((await request(app).get('/svc/api/thing/getById//')).status).toBe(404);
    expect((await request(app).get('/svc/api/thing/save')).status).toBe(404);
  });

  it('hands a request no route of its group answers on to the next layer with its URL restored', async () => {
    for (const path of ['/svc/api/thing/missing?x=1', '/svc/api/thing', '/svc/api/nothing/getById', '/', '/svc']) {
      const res = await request(app).get(path);
      expect([res.status, res.body]).toEqual([404, { notFound: path, baseUrl: '' }]);
    }
  });

  it('routes an absolute-form request target', async () => {
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as { port: number };
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(`GET http://127.0.0.1:${port}/svc/api/thing/getById?id=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
        );
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
        name: 'thing.getById',
        route: '/svc/api/thing/getById',
      });
    } finally {
      server.close();
    }
  });

  it('keeps registration order: a group whose first route comes after a middleware runs after it', async () => {
    const seen: string[] = [];
    const ordered = appWith((adapter, express) => {
      adapter.get('/svc/api/early/getById', echo('early'));
      express.use((req: Request, _res: Response, next: NextFunction) => {
        seen.push(req.path);
        next();
      });
      adapter.get('/svc/api/late/getById', echo('late'));
      // a later route of the early group still belongs to it, ahead of the middleware
      adapter.get('/svc/api/early/list', echo('early.list'));
    });
    expect((await request(ordered).get('/svc/api/early/getById')).body.name).toBe('early');
    expect((await request(ordered).get('/svc/api/early/list')).body.name).toBe('early.list');
    expect((await request(ordered).get('/svc/api/late/getById')).body.name).toBe('late');
    expect(seen).toEqual(['/svc/api/late/getById']);
  });

  it('leaves routes with parameters or wildcards to Express', async () => {
    const params = appWith((adapter) => adapter.get('/svc/api/item/:id', echo('param')));
    expect((await request(params).get('/svc/api/item/42')).body).toMatchObject({ name: 'param', route: '/svc/api/item/:id' });
  });
});
