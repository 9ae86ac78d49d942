/**
 * The services read their configuration from process.env while they are built, so a test sets the variables,
 * builds, and restores them. Builds that overlap (two services started with Promise.all) would read and restore
 * each other's variables, so the builds run one after another: each waits for the one before it.
 */
let previous: Promise<unknown> = Promise.resolve();

/** Runs `build` with `env` added to process.env, then restores process.env; one such build at a time. */
export function withProcessEnv<T>(env: Record<string, string>, build: () => Promise<T>): Promise<T> {
  const run = previous.then(async () => {
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      return await build();
    } finally {
      process.env = saved;
    }
  });
  previous = run.catch(() => undefined);
  return run;
}
