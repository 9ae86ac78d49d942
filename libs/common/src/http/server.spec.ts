import { Agent, request, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer, stopListening } from './server';

describe('stopListening', () => {
  it('closes the connection of every response not yet begun, and resolves once the connections ended', async () => {
    const held: ServerResponse[] = [];
    let arrived!: () => void;
    const bothArrived = new Promise<void>((resolve) => (arrived = resolve));
    const server = createHttpServer((_req, res) => {
      held.push(res);
      if (held.length === 2) arrived();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true });
    const get = () =>
      new Promise<string | undefined>((resolve, reject) =>
        request({ port, host: '127.0.0.1', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.headers.connection));
        })
          .on('error', reject)
          .end(),
      );
    const answers = [get(), get()];
    await bothArrived;
    // one answered before the server drains: its connection stays open until it ends by itself
    held[0].end('first');
    expect(await answers[0]).toBe('keep-alive');
    const stopped = stopListening(server);
    held[1].end('second');
    expect(await answers[1]).toBe('close');
    agent.destroy();
    await stopped;
  });
});
