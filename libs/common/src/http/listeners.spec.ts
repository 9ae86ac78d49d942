import { Agent, request, Server } from 'node:http';
import { AddressInfo, connect, Server as NetServer } from 'node:net';
import { ACCEPTING_SOCKETS, acceptsOnSeveralSockets, closeHelpers, listeningSockets, listenWide } from './listeners';
import { createHttpServer, stopListening } from './server';

/** A GET on a connection of its own; resolves to the answer's body. */
const get = (port: number) =>
  new Promise<string>((resolve, reject) =>
    request({ port, host: '127.0.0.1', agent: new Agent({ keepAlive: false }) }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk));
      res.on('end', () => resolve(body));
    })
      .on('error', reject)
      .end(),
  );

describe('listenWide', () => {
  let server: Server;

  beforeEach(async () => {
    server = createHttpServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => listenWide(server, 0, '127.0.0.1', resolve));
  });

  afterEach(async () => {
    if (server.listening) await stopListening(server);
  });

  it('listens on several sockets of one port where Node allows, all serving the one HTTP server', async () => {
    const { port } = server.address() as AddressInfo;
    expect(listeningSockets(server)).toBe(acceptsOnSeveralSockets() ? ACCEPTING_SOCKETS : 1);
    const answers = await Promise.all(Array.from({ length: 64 }, () => get(port)));
    expect(new Set(answers)).toEqual(new Set(['ok']));
    if (!acceptsOnSeveralSockets()) return;
    // with the server's own socket closed, the kernel sends every connection to a helper, which hands it on
    NetServer.prototype.close.call(server);
    expect(await get(port)).toBe('ok');
    await closeHelpers(server);
  });

  it('stops every socket accepting when it stops listening, and waits for their connections', async () => {
    const { port } = server.address() as AddressInfo;
    await get(port);
    await stopListening(server);
    expect(listeningSockets(server)).toBe(0);
    const refused = await new Promise<string>((resolve) =>
      connect({ port, host: '127.0.0.1' })
        .on('connect', () => resolve('connected'))
        .on('error', (error: NodeJS.ErrnoException) => resolve(String(error.code))),
    );
    expect(refused).toBe('ECONNREFUSED');
  });
});
