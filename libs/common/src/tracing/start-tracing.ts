/**
 * The first import of every entry file (main-service, device-service, the combined local server), so the
 * instrumentations patch http, express, mysql2 and kafkajs before anything loads them. Loads nothing more
 * unless OTEL_TRACES_EXPORTER asks for traces (tracing-switch.ts); then the SDK starts from the standard
 * OTEL_* variables (docs/operations.md "Tracing").
 */
import { defaultServiceName } from './service-name';
import { tracesRequested } from './tracing-switch';

if (tracesRequested(process.env)) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the SDK is loaded only when traces are asked for
  const { startTracingSdk } = require('./tracing-sdk') as typeof import('./tracing-sdk');
  startTracingSdk(defaultServiceName(process.env, require.main?.filename));
}
