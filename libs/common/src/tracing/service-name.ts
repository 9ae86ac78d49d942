/**
 * The service name traces carry when neither OTEL_SERVICE_NAME nor `service.name` in OTEL_RESOURCE_ATTRIBUTES
 * gives one: the service the entry file belongs to (`dist/apps/<service>/src/main.js`: main-service or
 * device-service, each its manifest's prefix), `back-office` for the combined local server, else undefined.
 */
export function defaultServiceName(env: NodeJS.ProcessEnv, entryFile: string | undefined): string | undefined {
  if (env.OTEL_SERVICE_NAME?.trim()) return undefined;
  if (/(^|,)\s*service\.name\s*=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '')) return undefined;
  const app = /[\\/]apps[\\/]([^\\/]+)[\\/]src[\\/]/.exec(entryFile ?? '')?.[1];
  if (!app) return undefined;
  return app === 'local' ? 'back-office' : app;
}
