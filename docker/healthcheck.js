// Container HEALTHCHECK: slim images have no curl. Liveness only (no DB/Kafka): a slow dependency must not
// get the container restarted. Path: {prefix}/health/live (test/deploy/contract.json paths.live).
const app = process.env.APP || 'main-service';
const port = process.env.PORT || (app === 'device-service' ? 3001 : 3000);
fetch(`http://127.0.0.1:${port}/${app}/health/live`, { signal: AbortSignal.timeout(2500) })
  .then((res) => process.exit(res.ok ? 0 : 1))
  .catch(() => process.exit(1));
