import type { Express, NextFunction, Request, Response } from 'express';
import type { Server } from 'node:http';
import request from 'supertest';
import { AppHttpAdapter } from '../http/server';

// these cases test the direct routes themselves, which FAST_PATHS=off (a CI leg) turns off; each test file has its own process.env
process.env.FAST_PATHS = 'on';

type Handler = (req: Request, res: Response, next: NextFunction) => void;
type Trail = Request & { trail?: string[] };

/** Answers with everything Express set up for the route, and the layers the request went through. */
const echo =
  (name: string): Handler =>
  (req, res) =>
    void res.json({
      name,
      route: `${req.baseUrl}${req.route?.path}`,
      url: req.url,
      originalUrl: req.originalUrl,
      baseUrl: req.baseUrl,
      params: req.params,
      query: req.query,
      path: req.path,
      trail: (req as Trail).trail,
      locals: Object.keys(res.locals),
    });

const mark =
  (step: string): Handler =>
  (req, _res, next) => {
    ((req as Trail).trail ??= []).push(`${step}:${req.url}:${JSON.stringify(req.params)}`);
    next();
  };

/** A server made by the adapter (direct routes) over an app registered the way Nest registers one. */
function appWith(register: (adapter: AppHttpAdapter, app: Express) => void): { app: Express; server: Server; adapter: AppHttpAdapter } {
  const adapter = new AppHttpAdapter();
  const app = adapter.getInstance<Express>();
  app.use(mark('first'));
  register(adapter, app);
  app.use(
    (req: Request, res: Response) => void res.status(404).json({ notFound: req.url, baseUrl: req.baseUrl, trail: (req as Trail).trail }),
  );
  app.use((error: Error, req: Request, res: Response, _next: NextFunction) => {
    void res.status(500).json({ error: error.message, url: req.url, baseUrl: req.baseUrl, trail: (req as Trail).trail });
  });
  adapter.initHttpServer({});
  return { app, server: adapter.getHttpServer() as Server, adapter };
}

interface Sent {
  method: 'get' | 'post' | 'put' | 'delete' | 'patch' | 'head' | 'options';
  path: string;
}

/** What a client sees, the parts that may not differ: status, body, and the headers but the date. */
async function answer(target: Server | Express, { method, path }: Sent) {
  const res = await request(target)[method](path);
  const headers = { ...res.headers };
  delete headers.date;
  return { status: res.status, headers, body: res.body as unknown, text: method === 'head' ? '' : res.text };
}

/** Sends each request through the server (direct routes) and through Express, expecting the same answers, and counts Express's own handling. */
async function sameBothWays(setup: ReturnType<typeof appWith>, sent: Sent[]): Promise<{ byExpress: number }> {
  const handle = jest.spyOn(setup.app as unknown as { handle: () => void }, 'handle');
  let byExpress = 0;
  for (const one of sent) {
    const before = handle.mock.calls.length;
    const direct = await answer(setup.server, one);
    byExpress += handle.mock.calls.length - before;
    expect({ ...one, ...direct }).toEqual({ ...one, ...(await answer(setup.app, one)) });
  }
  handle.mockRestore();
  return { byExpress };
}

describe('direct routes', () => {
  it('serve literal routes without Express walking its stack, as Express serves them: any case, one trailing slash, the query kept', async () => {
    const setup = appWith((adapter, app) => {
      adapter.get('/svc/api/thing/getById', echo('thing.getById'));
      app.use(mark('between'));
      adapter.post('/svc/api/other/save', echo('other.save'));
      adapter.put('/svc/api/other/save', echo('other.save.put'));
      adapter.delete('/svc/api/thing/remove', echo('thing.remove'));
    });
    const direct: Sent[] = [
      { method: 'get', path: '/svc/api/thing/getById?id=7&id=8' },
      { method: 'get', path: '/SVC/Api/THING/getbyid' },
      { method: 'get', path: '/svc/api/thing/getById/' },
      { method: 'post', path: '/svc/api/other/save' },
      { method: 'put', path: '/svc/api/other/save?x=1' },
      { method: 'delete', path: '/svc/api/thing/remove' },
    ];
    expect(await sameBothWays(setup, direct)).toEqual({ byExpress: 0 });
  });

  it("get requests and responses that the adapter's server made with the app's prototypes, and change no prototype", async () => {
    const setup = appWith((adapter) => adapter.get('/svc/api/thing/getById', echo('thing.getById')));
    const made: boolean[] = [];
    setup.server.prependListener('request', (req, res) =>
      made.push(Object.getPrototypeOf(req) === setup.app.request, Object.getPrototypeOf(res) === setup.app.response),
    );
    const setPrototypeOf = jest.spyOn(Object, 'setPrototypeOf');
    try {
      const sent: Sent = { method: 'get', path: '/svc/api/thing/getById?id=1' };
      const direct = await answer(setup.server, sent);
      expect(setPrototypeOf).not.toHaveBeenCalled();
      expect(made).toEqual([true, true]);
      expect(direct).toEqual(await answer(setup.app, sent));
    } finally {
      setPrototypeOf.mockRestore();
    }
  });

  it('leave to Express what they do not serve, with the same answers', async () => {
    const setup = appWith((adapter) => {
      adapter.get('/svc/api/thing/getById', echo('thing.getById'));
      adapter.get('/svc/api/item/:id', echo('param'));
    });
    const byExpress: Sent[] = [
      { method: 'get', path: '/svc/api/thing/getById//' },
      { method: 'head', path: '/svc/api/thing/getById' },
      { method: 'options', path: '/svc/api/thing/getById' },
      { method: 'post', path: '/svc/api/thing/getById' },
      { method: 'get', path: '/svc/api/thing/missing' },
      { method: 'get', path: '/svc/api/item/42' },
      { method: 'get', path: '/svc/api/thing/get%42yId' },
    ];
    expect(await sameBothWays(setup, byExpress)).toEqual({ byExpress: byExpress.length });
  });

  it("run a route layer that Nest's middleware puts before the routes, with its parameters", async () => {
    const setup = appWith((adapter, app) => {
      adapter.get('/svc/api/early/list', echo('early'));
      app.all('/svc{/*splat}', mark('nest-middleware'));
      adapter.get('/svc/api/late/list', echo('late'));
    });
    const sent: Sent[] = [
      { method: 'get', path: '/svc/api/early/list' },
      { method: 'get', path: '/svc/api/late/list?q=1' },
      { method: 'get', path: '/Svc/Api/Late/List/' },
    ];
    expect(await sameBothWays(setup, sent)).toEqual({ byExpress: 0 });
  });

  it('leave a route to Express when middleware mounted at a path would see its requests first', async () => {
    const setup = appWith((adapter, app) => {
      adapter.get('/svc/api/early/list', echo('early'));
      app.use('/svc/api/late', mark('mounted'));
      adapter.get('/svc/api/late/list', echo('late'));
    });
    expect(await sameBothWays(setup, [{ method: 'get', path: '/svc/api/late/list' }])).toEqual({ byExpress: 1 });
    expect(await sameBothWays(setup, [{ method: 'get', path: '/svc/api/early/list' }])).toEqual({ byExpress: 0 });
  });

  it("hand errors and next() on to Express's later layers, from where Express would be", async () => {
    const passOn = (step: string) => (error: Error, req: Request, _res: Response, next: NextFunction) => {
      ((req as Trail).trail ??= []).push(`${step}:${error.message}`);
      next(error);
    };
    const setup = appWith((adapter, app) => {
      app.use(passOn('error handler before'));
      app.use((req: Request, _res: Response, next: NextFunction) => (req.query.fail ? next(new Error('middleware failed')) : next()));
      app.use((req: Request) => {
        if (req.query.throw) throw new Error('middleware threw');
        req.next!();
      });
      const passing =
        (error?: unknown): Handler =>
        (_req, _res, next) =>
          next(error);
      adapter.get('/svc/api/thing/next', passing());
      app.use(passOn('error handler between'));
      adapter.get('/svc/api/later/fail', passing(new Error('later route failed')));
      adapter.get('/svc/api/thing/route', passing('route'));
      adapter.get('/svc/api/thing/fail', passing(new Error('route failed')));
      adapter.get('/svc/api/thing/throw', () => {
        throw new Error('route threw');
      });
      adapter.get('/svc/api/thing/reject', () => Promise.reject(new Error('route rejected')));
      adapter.get('/svc/api/thing/ok', echo('ok'));
    });
    const sent: Sent[] = [
      { method: 'get', path: '/svc/api/thing/ok?fail=1' },
      { method: 'get', path: '/svc/api/thing/ok?throw=1' },
      { method: 'get', path: '/svc/api/thing/next?a=1' },
      { method: 'get', path: '/svc/api/thing/route' },
      { method: 'get', path: '/svc/api/thing/fail' },
      { method: 'get', path: '/svc/api/thing/throw' },
      { method: 'get', path: '/svc/api/thing/reject' },
      { method: 'get', path: '/svc/api/thing/ok' },
      { method: 'get', path: '/svc/api/later/fail' },
    ];
    expect(await sameBothWays(setup, sent)).toEqual({ byExpress: 0 });
  });

  it('leave a request whose URL a middleware rewrote to Express, from that middleware on', async () => {
    const setup = appWith((adapter, app) => {
      app.use((req: Request, _res: Response, next: NextFunction) => {
        if (req.query.moved) req.url = '/svc/api/thing/other';
        next();
      });
      adapter.get('/svc/api/thing/ok', echo('ok'));
      adapter.get('/svc/api/thing/other', echo('other'));
    });
    expect(await sameBothWays(setup, [{ method: 'get', path: '/svc/api/thing/ok?moved=1' }])).toEqual({ byExpress: 0 });
  });

  it("end in Express's final handler when a middleware leaves the router", async () => {
    const setup = appWith((adapter, app) => {
      app.use((_req: Request, _res: Response, next: NextFunction) => next('router'));
      adapter.get('/svc/api/thing/ok', echo('ok'));
    });
    expect(await sameBothWays(setup, [{ method: 'get', path: '/svc/api/thing/ok' }])).toEqual({ byExpress: 0 });
  });

  it('serve routes registered after the first request', async () => {
    const setup = appWith((adapter) => adapter.get('/svc/api/thing/one', echo('one')));
    await request(setup.server).get('/svc/api/thing/one');
    setup.adapter.get('/svc/api/thing/two', echo('two'));
    // it joins its group, whose layer comes before the not-found layer
    expect(await sameBothWays(setup, [{ method: 'get', path: '/svc/api/thing/two' }])).toEqual({ byExpress: 0 });
  });
});
