import express, { Express, Request, Response } from 'express';
import type { AddressInfo } from 'node:net';
import { request, Server } from 'node:http';
import { noteBodyStatuses } from '../http/sent-status';

const ENVELOPE = { timestamp: 1, status: 200, error: null, data: { name: 'Zoë <&>', list: [1, 2] } };

/** An app whose routes answer res.json in each of the ways that matter to Express. */
function appWith(fastPaths: boolean, configure: (app: Express) => void = () => undefined): Express {
  const app = express();
  app.set('etag', false);
  configure(app);
  noteBodyStatuses(app, fastPaths);
  app.all('/plain', (_req: Request, res: Response) => res.json(ENVELOPE));
  app.all('/large', (_req: Request, res: Response) => res.json({ ...ENVELOPE, data: 'ü'.repeat(2000) }));
  app.all('/typed', (_req: Request, res: Response) => res.type('text/plain').json(ENVELOPE));
  app.all('/tagged', (_req: Request, res: Response) => res.set('ETag', '"x"').json(ENVELOPE));
  app.all('/no-content', (_req: Request, res: Response) => res.status(204).json(ENVELOPE));
  app.all('/created', (_req: Request, res: Response) => res.status(201).json(ENVELOPE));
  app.all('/scalar', (_req: Request, res: Response) => res.json('text'));
  app.all('/null', (_req: Request, res: Response) => res.json(null));
  return app;
}

/** What a client sees of one answer: status, headers but the date, body (node:http, which sends the headers as given). */
async function answer(app: Express, path: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  try {
    return await new Promise<{ status?: number; headers: object; body: string }>((resolve, reject) => {
      const port = (server.address() as AddressInfo).port;
      request({ port, host: '127.0.0.1', path, ...init, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          const { date: _date, connection: _connection, ...headers } = res.headers;
          resolve({ status: res.statusCode, headers, body });
        });
      })
        .on('error', reject)
        .end();
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('sendJson (fast path)', () => {
  const requests: [string, { method?: string; headers?: Record<string, string> }][] = [
    ['/plain', {}],
    ['/plain', { method: 'POST' }],
    ['/plain', { method: 'HEAD' }],
    ['/plain', { headers: { 'If-None-Match': '*' } }],
    ['/plain', { method: 'QUERY', headers: { 'If-None-Match': '*' } }],
    ['/plain', { headers: { 'If-Modified-Since': new Date(Date.now() + 60_000).toUTCString() } }],
    ['/large', {}],
    ['/typed', {}],
    ['/tagged', {}],
    ['/tagged', { headers: { 'If-None-Match': '"x"' } }],
    ['/no-content', {}],
    ['/created', { method: 'POST' }],
    ['/scalar', {}],
    ['/null', {}],
  ];
  const settings: [string, (app: Express) => void][] = [
    ['as the services set them', () => undefined],
    ['json spaces', (app) => app.set('json spaces', 2)],
    ['json escape', (app) => app.set('json escape', true)],
    ['json replacer', (app) => app.set('json replacer', (_k: string, v: unknown) => (typeof v === 'number' ? v + 1 : v))],
    ['etag on', (app) => app.set('etag', true)],
  ];

  it.each(settings)('answers as Express does, with the app settings %s', async (_name, configure) => {
    for (const [path, init] of requests)
      expect({ path, init, ...(await answer(appWith(true, configure), path, init)) }).toEqual({
        path,
        init,
        ...(await answer(appWith(false, configure), path, init)),
      });
  });

  it('sends the plain envelope itself, and leaves the rest to Express', async () => {
    const sent = jest.spyOn(express.response, 'send');
    const sends = async (app: Express, init: { method?: string }, path = '/plain') => {
      sent.mockClear();
      await answer(app, path, init);
      return sent.mock.calls.length;
    };
    try {
      expect(await sends(appWith(true), { method: 'POST' })).toBe(0);
      expect(await sends(appWith(true), { method: 'HEAD' })).toBe(1);
      expect(
        await sends(
          appWith(true, (app) => app.set('json spaces', 2)),
          {},
        ),
      ).toBe(1);
      expect(await sends(appWith(false), { method: 'POST' })).toBe(1);
    } finally {
      sent.mockRestore();
    }
  });
});
