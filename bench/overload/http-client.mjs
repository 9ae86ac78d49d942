// A lean HTTP/1.1 client on node:net for the overload benchmark. It shares two cores with the service and MariaDB,
// so it does the least per answer: requests are bytes built by the caller, and of a response it reads only the
// status line, Content-Length / Transfer-Encoding, Retry-After, Connection and the first bytes of the body (the
// envelope's `status`). One request is outstanding per connection (no pipelining). Anything that is not HTTP/1.1
// raises a ResponseError, so a service answering garbage costs the connection, never the generator.
import { connect } from 'node:net';

const HEAD_END = Buffer.from('\r\n\r\n');
const LINE_END = Buffer.from('\r\n');
const MAX_HEAD_BYTES = 64 * 1024;
/** Body bytes kept of each answer: the envelope's `status` and `error` come first in it. */
const SAMPLE_BYTES = 240;
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: |$)/;

export class ResponseError extends Error {}

/** Splits a connection's bytes into responses; `onResponse({ status, retryAfter, close, envelope, sample })`. */
export class ResponseParser {
  constructor(onResponse) {
    this.onResponse = onResponse;
    this.buffer = null;
    this.startResponse();
  }

  startResponse() {
    this.state = 'head';
    this.response = null;
    this.remaining = 0;
    this.sample = '';
  }

  /** Takes the next bytes; throws a ResponseError when they are not an HTTP/1.1 response. */
  feed(chunk) {
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
    while (this.buffer && this.step());
  }

  /** The connection closed: completes a body that runs until close; false when a response was cut short. */
  end() {
    if (this.state !== 'until-close') return false;
    this.complete();
    return true;
  }

  consume(n) {
    this.buffer = n >= this.buffer.length ? null : this.buffer.subarray(n);
  }

  /** Consumes up to `remaining` body bytes, keeping the first SAMPLE_BYTES; true when `remaining` reached 0. */
  bodyBytes(limit = this.remaining) {
    const n = Math.min(limit, this.buffer.length);
    if (this.sample.length < SAMPLE_BYTES) this.sample += this.buffer.toString('latin1', 0, Math.min(n, SAMPLE_BYTES - this.sample.length));
    this.consume(n);
    this.remaining -= n;
    return this.remaining === 0;
  }

  /** One parsing step over the buffer; false when it needs more bytes. */
  step() {
    switch (this.state) {
      case 'head': {
        const end = this.buffer.indexOf(HEAD_END);
        if (end < 0) {
          if (this.buffer.length > MAX_HEAD_BYTES) throw new ResponseError('response head too long');
          return false;
        }
        const response = parseHead(this.buffer.toString('latin1', 0, end));
        this.consume(end + 4);
        if (response.status < 200) return true; // an interim 1xx: the final head follows
        this.response = response;
        if (response.status === 204 || response.status === 304 || response.length === 0) return this.complete();
        if (response.chunked) this.state = 'chunk-size';
        else if (response.length > 0) [this.state, this.remaining] = ['body', response.length];
        else this.state = 'until-close';
        return true;
      }
      case 'body':
        return this.bodyBytes() ? this.complete() : false;
      case 'until-close':
        this.bodyBytes(this.buffer.length);
        return false;
      case 'chunk-size': {
        const end = this.buffer.indexOf(LINE_END);
        if (end < 0) {
          if (this.buffer.length > 1024) throw new ResponseError('chunk size line too long');
          return false;
        }
        const line = this.buffer.toString('latin1', 0, end).split(';')[0].trim();
        if (!/^[0-9a-fA-F]{1,8}$/.test(line)) throw new ResponseError(`bad chunk size ${JSON.stringify(line.slice(0, 20))}`);
        this.consume(end + 2);
        this.remaining = parseInt(line, 16);
        this.state = this.remaining === 0 ? 'trailers' : 'chunk';
        return true;
      }
      case 'chunk':
        if (this.bodyBytes()) this.state = 'chunk-end';
        return true;
      case 'chunk-end':
        if (this.buffer.length < 2) return false;
        if (this.buffer[0] !== 13 || this.buffer[1] !== 10) throw new ResponseError('chunk not ended by CRLF');
        this.consume(2);
        this.state = 'chunk-size';
        return true;
      case 'trailers': {
        const end = this.buffer.indexOf(LINE_END);
        if (end < 0) return false;
        this.consume(end + 2);
        return end === 0 ? this.complete() : true; // an empty line ends the trailers
      }
    }
    throw new ResponseError(`parser state ${this.state}`);
  }

  complete() {
    const { status, retryAfter, close } = this.response;
    const envelope = /"status":(\d+)/.exec(this.sample);
    const response = { status, retryAfter, close, envelope: envelope ? Number(envelope[1]) : null, sample: this.sample };
    this.startResponse();
    this.onResponse(response);
    return true;
  }
}

function parseHead(head) {
  const lines = head.split('\r\n');
  const statusLine = STATUS_LINE.exec(lines[0]);
  if (!statusLine) throw new ResponseError(`not an HTTP/1.1 status line: ${JSON.stringify(lines[0].slice(0, 40))}`);
  const response = { status: Number(statusLine[2]), length: -1, chunked: false, retryAfter: null, close: statusLine[1] === '0' };
  for (let i = 1; i < lines.length; i++) {
    const colon = lines[i].indexOf(':');
    if (colon <= 0) throw new ResponseError(`bad header line ${JSON.stringify(lines[i].slice(0, 40))}`);
    const name = lines[i].slice(0, colon).trim().toLowerCase();
    const value = lines[i].slice(colon + 1).trim();
    if (name === 'content-length') {
      if (!/^\d{1,12}$/.test(value)) throw new ResponseError(`bad Content-Length ${JSON.stringify(value.slice(0, 20))}`);
      response.length = Number(value);
    } else if (name === 'transfer-encoding') response.chunked = /chunked/i.test(value);
    else if (name === 'retry-after') response.retryAfter = value;
    else if (name === 'connection') response.close = /close/i.test(value) || (response.close && !/keep-alive/i.test(value));
  }
  return response;
}

/**
 * One client connection to 127.0.0.1:`port`, one request at a time; `send` (re)opens the socket when there is none.
 * `handlers.response(response, ms)` gets each answer and its latency from `send` (a new socket's connect included:
 * that is the client's wait); `handlers.failure(code, connected)` a request lost to a connection error, garbage or a
 * close before the answer (`connected` false when the socket never connected); `handlers.idle()` a server close
 * with nothing outstanding. After a callback the connection has no request outstanding and may `send` again.
 */
export class ClientConnection {
  constructor(port, handlers) {
    this.port = port;
    this.handlers = handlers;
    this.socket = null;
    this.busy = false;
    this.sentAt = 0;
    this.opened = 0;
  }

  send(bytes) {
    if (!this.socket) this.open();
    this.busy = true;
    this.sentAt = performance.now();
    this.socket.write(bytes);
  }

  open() {
    const socket = connect({ host: '127.0.0.1', port: this.port, noDelay: true });
    const state = { connected: false, error: null, closing: false };
    // a dropped socket's late bytes are ignored; at its close, a body that ran until close still completes
    const current = () => this.socket === socket || state.closing;
    const parser = new ResponseParser((response) => {
      if (!current()) return;
      this.busy = false;
      if (response.close) this.close(); // the server ends this connection: the next send opens another
      this.handlers.response(response, performance.now() - this.sentAt);
    });
    this.socket = socket;
    this.opened++;
    socket.on('connect', () => (state.connected = true));
    socket.on('data', (chunk) => {
      try {
        parser.feed(chunk);
      } catch (error) {
        if (!(error instanceof ResponseError)) throw error;
        if (this.socket === socket) this.lose('bad-response', true);
      }
    });
    socket.on('error', (error) => (state.error = error.code ?? 'error'));
    socket.on('close', () => {
      if (this.socket !== socket) return; // dropped on purpose
      this.socket = null;
      if (!this.busy) return this.handlers.idle();
      state.closing = true;
      if (parser.end()) return;
      this.busy = false;
      this.handlers.failure(state.error ?? 'closed-before-answer', state.connected);
    });
  }

  /** Drops the socket after a lost request and reports it. */
  lose(code, connected) {
    this.close();
    this.handlers.failure(code, connected);
  }

  /** Drops the socket without any callback (stopping, or a timeout the caller counts itself). */
  close() {
    const socket = this.socket;
    this.socket = null;
    this.busy = false;
    if (!socket) return;
    socket.removeAllListeners();
    socket.on('error', () => {});
    socket.destroy();
  }
}

/** A connection for one request at a time as a promise: `{ response, ms }` or `{ failure, ms }`, never a rejection. */
export class PromisedConnection {
  constructor(port) {
    this.connection = new ClientConnection(port, {
      response: (response, ms) => this.settle({ response, ms }),
      failure: (failure) => this.settle({ failure, ms: performance.now() - this.connection.sentAt }),
      idle: () => {},
    });
  }

  get busy() {
    return Boolean(this.resolve);
  }

  request(bytes, timeoutMs) {
    return new Promise((resolve) => {
      this.resolve = resolve;
      this.timer = setTimeout(() => {
        this.connection.close();
        this.settle({ failure: 'timeout', ms: timeoutMs });
      }, timeoutMs);
      this.connection.send(bytes);
    });
  }

  settle(outcome) {
    clearTimeout(this.timer);
    const resolve = this.resolve;
    this.resolve = null;
    resolve?.(outcome);
  }

  close() {
    this.connection.close();
    this.settle({ failure: 'closed', ms: 0 });
  }
}
