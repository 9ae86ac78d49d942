import { once } from 'node:events';
import type { Writable } from 'node:stream';

/**
 * The response an export writes to, with backpressure: a write the socket cannot take at once waits for 'drain', so
 * at most a batch's bytes wait in memory whatever the row count. `signal` ends a wait when the client has gone.
 */
export class ExportOutput {
  bytes = 0;

  constructor(
    readonly out: Writable,
    readonly signal: AbortSignal,
  ) {}

  async write(chunk: string | Buffer): Promise<void> {
    this.signal.throwIfAborted();
    this.bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (!this.out.write(chunk)) await drained(this.out, this.signal);
  }
}

/** Resolves once `stream` takes writes again (at once when it does); rejects when `signal` aborts. */
export async function drained(stream: Writable, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  if (stream.writableNeedDrain) await once(stream, 'drain', { signal });
}

/** One export's file: its start, its rows batch by batch, its end, each written with backpressure. */
export interface RowFile {
  start(): Promise<void>;
  rows(rows: Record<string, unknown>[]): Promise<void>;
  end(): Promise<void>;
}

/** A value as a file's text: objects and lists (e-mail addresses) as their JSON. */
export const textOf = (value: unknown): string => (typeof value === 'object' ? JSON.stringify(value) : String(value));
