/**
 * Tracing is off unless the environment names an exporter: OTEL_TRACES_EXPORTER set to one or more
 * exporters (`otlp`, `zipkin`, `console`), none of them `none`, and OTEL_SDK_DISABLED not `true`. The
 * SDK's own default without the variable would be `otlp`; here no variable means no SDK is loaded at all.
 */
export function tracesRequested(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  return exporters.length > 0 && !exporters.includes('none');
}

/** Set once the SDK runs, with the SDK's shutdown: the helpers that would only add work without it look here first. */
let stopSdk: (() => Promise<void>) | undefined;

export function markTracingStarted(stop: () => Promise<void>): void {
  stopSdk = stop;
}

export function tracingStarted(): boolean {
  return stopSdk !== undefined;
}

/** How long a process about to exit waits for its last spans to be sent: an unreachable collector must not hold the shutdown. */
const STOP_WAIT_MS = 2000;

/** Sends the spans still buffered (waiting at most STOP_WAIT_MS) and stops the SDK, for a process about to exit; nothing without tracing. */
export async function stopTracing(): Promise<void> {
  const stop = stopSdk;
  stopSdk = undefined;
  if (!stop) return;
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS).unref()));
  await Promise.race([stop().catch(() => undefined), waited]);
  clearTimeout(timer);
}
