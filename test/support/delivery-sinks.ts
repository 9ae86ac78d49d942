/**
 * Local delivery sinks for the delivery suites: an SMTP server (smtp-server) that records what
 * arrives, and an HTTP SMS provider that records signed requests. Both listen on 127.0.0.1 only.
 */
import { simpleParser } from 'mailparser';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo, createServer as createNetServer, Socket } from 'node:net';
import { SMTPServer, SMTPServerAddress } from 'smtp-server';

export interface ReceivedMail {
  mailFrom: string;
  rcptTo: string[];
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  text: string;
  html: string | false;
  auth?: { username: string; password: string };
}

export interface SmtpSink {
  port: number;
  received: ReceivedMail[];
  /** Recipients the server refuses with `550 mailbox unavailable`, and how often it refused each. */
  refuse: Set<string>;
  refusals: Map<string, number>;
  /** Holds every DATA for this long before accepting it (0: none). */
  dataDelayMs: number;
  /** Messages whose DATA has begun to arrive (a send in progress, accepted or not yet). */
  dataStarted: number;
  /** AUTH commands received (each one carried the password, in clear on this server without TLS). */
  authAttempts: number;
  /** A failed login is answered with the credentials it got, base64 as sent (a careless server's 535). */
  echoAuth: boolean;
  /** TLS server names (SNI) the clients asked for (`tls` sinks). */
  serverNames: string[];
  close(): Promise<void>;
}

/** A port nothing listens on right now (for a server that is down and comes back). */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const addresses = (value: unknown): string[] => {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list.flatMap((a: { value: { address?: string }[] }) => a.value.map((v) => v.address ?? ''));
};

/**
 * An SMTP server without TLS (STARTTLS not offered), accepting AUTH over plain text when `credentials`
 * are given (and requiring them then), on `host` (a loopback address, 127.0.0.1 unless given); with `tls`,
 * TLS from the first byte instead (SMTPS) with a certificate no client trusts.
 */
export async function startSmtpSink(
  options: { port?: number; host?: string; credentials?: { username: string; password: string }; tls?: boolean } = {},
): Promise<SmtpSink> {
  const sink: Omit<SmtpSink, 'port' | 'close'> = {
    received: [],
    refuse: new Set(),
    refusals: new Map(),
    dataDelayMs: 0,
    dataStarted: 0,
    authAttempts: 0,
    echoAuth: false,
    serverNames: [],
  };
  const { credentials } = options;
  const server = new SMTPServer({
    disabledCommands: credentials ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !credentials,
    allowInsecureAuth: true,
    logger: false,
    // `tls`: TLS from the first byte with smtp-server's own self-signed certificate for localhost
    ...(options.tls
      ? {
          secure: true,
          SNICallback: (name: string, callback: (error: Error | null, context?: undefined) => void) => {
            sink.serverNames.push(name);
            callback(null);
          },
        }
      : {}),
    // close() does not wait for the clients' pooled idle connections to end
    closeTimeout: 50,
    onAuth(auth, session, callback) {
      sink.authAttempts++;
      if (credentials && auth.username === credentials.username && auth.password === credentials.password) {
        (session as unknown as { auth: unknown }).auth = { username: auth.username, password: auth.password };
        return callback(null, { user: auth.username });
      }
      const echo = sink.echoAuth
        ? ` for AUTH PLAIN ${Buffer.from(`\0${auth.username}\0${auth.password ?? ''}`).toString('base64')} / ${Buffer.from(auth.password ?? '').toString('base64')}`
        : '';
      callback(Object.assign(new Error(`Authentication failed${echo}`), { responseCode: 535 }));
    },
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      if (sink.refuse.has(address.address)) {
        sink.refusals.set(address.address, (sink.refusals.get(address.address) ?? 0) + 1);
        return callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      sink.dataStarted++;
      simpleParser(stream).then(
        (mail) => {
          const accept = () => {
            sink.received.push({
              mailFrom: (session.envelope.mailFrom as SMTPServerAddress).address,
              rcptTo: session.envelope.rcptTo.map((r) => r.address),
              from: addresses(mail.from)[0],
              to: addresses(mail.to),
              cc: addresses(mail.cc),
              subject: mail.subject ?? '',
              // mailparser keeps the line break that ends the body
              text: (mail.text ?? '').trimEnd(),
              html: typeof mail.html === 'string' ? mail.html.trimEnd() : false,
              auth: (session as unknown as { auth?: ReceivedMail['auth'] }).auth,
            });
            callback();
          };
          if (sink.dataDelayMs) setTimeout(accept, sink.dataDelayMs);
          else accept();
        },
        (error: Error) => callback(error),
      );
    },
  });
  // a client that refuses the certificate drops the handshake: the server reports it, nothing more
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return Object.assign(sink, { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}

export interface ProviderRequest {
  method: string;
  /** The request target: path and query. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface SmsProvider {
  /** `http://<host>:<port>/sms/send`. */
  endpoint: string;
  port: number;
  requests: ProviderRequest[];
  /** The HTTP status the provider answers with (200: `{"messageId": "msg-<n>"}`). */
  status: number;
  /** When set, the body of a 200 answer instead. */
  answer?: string;
  close(): Promise<void>;
}

/** An HTTP SMS provider on `host` (a loopback address, 127.0.0.1 unless given). */
export async function startSmsProvider(host = '127.0.0.1'): Promise<SmsProvider> {
  const provider: { requests: ProviderRequest[]; status: number; answer?: string } = { requests: [], status: 200 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      provider.requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(provider.status, { 'Content-Type': 'application/json' });
      const ok = provider.answer ?? JSON.stringify({ messageId: `msg-${provider.requests.length}` });
      res.end(provider.status === 200 ? ok : '{"error":"unavailable"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(provider, {
    endpoint: `http://${host}:${port}/sms/send`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** Polls `read` until `done` holds for its value (no timing assertion: only a generous deadline). */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: last ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface StallingServer {
  port: number;
  /** Connections accepted so far. */
  connections: number;
  close(): Promise<void>;
}

/** A TCP server that accepts every connection and never says a word (an SMTP server that never greets). */
export async function startStallingServer(): Promise<StallingServer> {
  const sockets = new Set<Socket>();
  const stalling = { connections: 0 };
  const server = createNetServer((socket) => {
    stalling.connections++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(stalling, {
    port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

export interface DripSmtpServer {
  port: number;
  /** Connections accepted so far, open now, and the most open at once. */
  connections: number;
  open: number;
  maxOpen: number;
  /** Connections the client closed (the server only ever closes its side after the client did). */
  closedByClient: number;
  /** The verbs of the commands that came after EHLO (none should: the reply to EHLO never ends). */
  commands: string[];
  close(): Promise<void>;
}

/**
 * An SMTP server that greets at once and answers EHLO with `250-` continuation lines, one every `intervalMs`,
 * forever: the exchange is never idle, so no socket timeout of the client ends it. The server closes a
 * connection as soon as the client closes its side. Commands are recorded by their verb only.
 */
export async function startDripSmtpServer(intervalMs = 100): Promise<DripSmtpServer> {
  const sockets = new Set<Socket>();
  const drip = { connections: 0, open: 0, maxOpen: 0, closedByClient: 0, commands: [] as string[] };
  const server = createNetServer((socket) => {
    drip.connections++;
    drip.maxOpen = Math.max(drip.maxOpen, ++drip.open);
    sockets.add(socket);
    let timer: NodeJS.Timeout | undefined;
    let closed = false;
    const closedNow = (byClient: boolean) => {
      if (closed) return;
      closed = true;
      drip.open--;
      if (byClient) drip.closedByClient++;
      clearInterval(timer);
    };
    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      let end: number;
      while ((end = pending.indexOf('\r\n')) >= 0) {
        const verb = pending.slice(0, end).split(' ')[0].toUpperCase();
        pending = pending.slice(end + 2);
        if ((verb === 'EHLO' || verb === 'HELO') && !timer) {
          let n = 0;
          timer = setInterval(() => socket.write(`250-drip.example feature ${++n}\r\n`), intervalMs);
        } else drip.commands.push(verb);
      }
    });
    // the client closed its side (at its deadline): counted at once, before anything else it does next
    socket.on('end', () => {
      closedNow(true);
      socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closedNow(false);
      sockets.delete(socket);
    });
    socket.write('220 drip.example ESMTP\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(drip, {
    port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

export interface TricklingProvider {
  /** `http://127.0.0.1:<port>/sms/send`. */
  endpoint: string;
  /** Requests received (each one complete, signed, as a real provider would get it). */
  requests: number;
  /** Answers being trickled now, and the most at once. */
  open: number;
  maxOpen: number;
  /** Answers the client cut short by closing the connection. */
  closedByClient: number;
  close(): Promise<void>;
}

/**
 * An HTTP SMS provider that reads the whole request, answers 200 at once and then trickles the body, a byte
 * every `intervalMs`, forever (never idle, never complete).
 */
export async function startTricklingProvider(intervalMs = 100): Promise<TricklingProvider> {
  const provider = { requests: 0, open: 0, maxOpen: 0, closedByClient: 0 };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      provider.requests++;
      provider.maxOpen = Math.max(provider.maxOpen, ++provider.open);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"messageId":"');
      const timer = setInterval(() => res.write('x'), intervalMs);
      res.on('close', () => {
        clearInterval(timer);
        provider.open--;
        if (!res.writableEnded) provider.closedByClient++;
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(provider, {
    endpoint: `http://127.0.0.1:${port}/sms/send`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
