import type { Server } from 'node:http';
import { INestApplication, Logger } from '@nestjs/common';
import { DrainState } from '../health/drain-state';
import { stopListening } from './server';
import { stopTracing } from '../tracing/tracing-switch';

/**
 * SIGTERM/SIGINT for a process serving `apps` on `server`: readiness turns 503 at once, the server
 * stops accepting connections and waits for in-flight requests, and only then are the apps closed
 * (Nest's hooks: outbox relay and message bus; an app's background senders, which finish the sends
 * in hand, bounded by their own timeouts, and release their other claims; then the data source).
 * Nest's own enableShutdownHooks is not used: its close() runs the relay's and the modules' destroy hooks
 * before it closes the HTTP server, so a request still running would lose its bus. Exits 0, or 1 after
 * `timeoutMs` (a send still running then keeps its claim until the lease expires, and is sent again).
 */
export function shutDownOnSignals(server: Server, apps: INestApplication[], timeoutMs: number): void {
  const logger = new Logger('Shutdown');
  let stopping = false;
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal}: draining (at most ${timeoutMs} ms)`);
    setTimeout(() => {
      logger.error(`shutdown did not finish within ${timeoutMs} ms; exiting`);
      process.exit(1);
    }, timeoutMs).unref();
    for (const app of apps) app.get(DrainState).begin();
    try {
      await stopListening(server);
      await Promise.all(apps.map((app) => app.close()));
      await stopTracing(); // the last spans (nothing without tracing)
      logger.log('stopped');
      process.exit(0);
    } catch (error) {
      logger.error(`shutdown failed: ${(error as Error).name}`);
      process.exit(1);
    }
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, (s) => void stop(s));
}
