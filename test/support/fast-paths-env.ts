/** Runs `work` with FAST_PATHS set to `value`, the environment restored afterwards (what reads it at construction keeps it). */
export async function withFastPaths<T>(value: 'on' | 'off', work: () => Promise<T> | T): Promise<T> {
  const saved = process.env.FAST_PATHS;
  process.env.FAST_PATHS = value;
  try {
    return await work();
  } finally {
    if (saved === undefined) delete process.env.FAST_PATHS;
    else process.env.FAST_PATHS = saved;
  }
}
