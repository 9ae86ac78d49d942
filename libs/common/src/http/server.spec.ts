import { Agent, request, ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
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

describe('a request Node cannot parse', () => {
  /** What a client that sends a request, then `garbage` once the first answer began, reads until the connection closes. */
  async function readAfterGarbage(answer: (res: ServerResponse) => void, garbage: string): Promise<string> {
    let began!: () => void;
    const answered = new Promise<void>((resolve) => (began = resolve));
    const server = createHttpServer((_req, res) => {
      answer(res);
      began();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.write('GET /lamp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await answered;
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.write(garbage);
      await closed;
      return text;
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('is answered with the 400 envelope once the answers before it are sent', async () => {
    const text = await readAfterGarbage((res) => res.end('lit'), 'NOT HTTP\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nlit/);
    expect(text).toContain('HTTP/1.1 400 Bad Request');
    expect(text).toContain('"error":"Malformed HTTP request"');
  });

  it('closes the connection without an answer while the answer before it is still being sent', async () => {
    const text = await readAfterGarbage((res) => {
      res.writeHead(200, { 'Content-Length': 100 });
      res.write('part');
    }, 'NOT HTTP\r\n\r\n');
    expect(text).toMatch(/\r\n\r\npart$/);
    expect(text).not.toContain('400');
  });
});
