/**
 * The built embedded server (dist/apps/local: both services behind one port, as `npm start` runs them) as a
 * process, on a free loopback port with throw-away SQLite files and the test suite's JWT secret, so a token
 * from test/support/tokens is accepted.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, waitFor } from '../support/delivery-sinks';
import type { Json } from '../support/json';
import { TEST_JWT_SECRET } from '../support/tokens';

const ROOT = resolve(__dirname, '../..');
const ENTRY = join(ROOT, 'dist/apps/local/src/local.js');
export const SERVICES = ['main-service', 'device-service'] as const;
export type Service = (typeof SERVICES)[number];

export interface BuiltServer {
  base: string;
  /** Each service's OpenAPI document, as served at `{prefix}/v3/api-docs`. */
  documents: Record<Service, Json>;
  stop(): Promise<void>;
}

const fetchDocument = async (base: string, service: Service): Promise<Json | null> => {
  const response = await fetch(`${base}/${service}/v3/api-docs`).catch(() => null);
  return response?.ok ? ((await response.json()) as Json) : null;
};

/** Starts the server and resolves once both services serve their documents (a loaded machine starts it slowly). */
export async function startBuiltServer(): Promise<BuiltServer> {
  const dir = mkdtempSync(join(tmpdir(), 'browser-'));
  const port = await freePort();
  const { DB_URL: _db, KAFKA_BROKERS: _kafka, ...inherited } = process.env;
  const env = { ...inherited, SQLITE_DIR: dir, PORT: String(port), JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'warn' };
  const child: ChildProcess = spawn(process.execPath, [ENTRY], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  try {
    const documents = await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`the built server exited with ${child.exitCode}:\n${output}`);
        const [main, device] = await Promise.all(SERVICES.map((service) => fetchDocument(base, service)));
        return main && device ? { 'main-service': main, 'device-service': device } : null;
      },
      (documents) => documents !== null,
      'both OpenAPI documents of the built server',
      120_000,
    );
    return { base, documents: documents!, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
