/** The millisecond whose text `isoTime` last made, and that text. */
let cachedAt = Number.NaN;
let cachedText = '';

/**
 * pino's `timestamp` option: the text of pino.stdTimeFunctions.isoTime, made once per millisecond. Under load many
 * lines share a millisecond, and formatting a Date was a good part of what a line cost. Reads Date.now() as pino
 * does, so a test's fake clock moves it.
 */
export function isoTime(): string {
  const now = Date.now();
  if (now !== cachedAt) {
    cachedText = `,"time":"${new Date(now).toISOString()}"`;
    cachedAt = now;
  }
  return cachedText;
}
