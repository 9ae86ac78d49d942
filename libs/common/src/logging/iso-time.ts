/** The millisecond whose text `isoTime` last made, and that text. */
let cachedAt = Number.NaN;
let cachedText = '';
/** The second whose date and time `isoTime` last formatted, and that text up to its milliseconds. */
let secondAt = Number.NaN;
let secondText = '';

/** Milliseconds as the three digits of an ISO time. */
const threeDigits = (ms: number): string => (ms < 10 ? `00${ms}` : ms < 100 ? `0${ms}` : `${ms}`);

/**
 * pino's `timestamp` option: the text of pino.stdTimeFunctions.isoTime, made once per millisecond from a date
 * formatted once per second. Under load many lines share a millisecond, and formatting a Date was a good part of
 * what a line cost. Reads Date.now() as pino does, so a test's fake clock moves it.
 */
export function isoTime(): string {
  const now = Date.now();
  if (now !== cachedAt) {
    const second = Math.floor(now / 1000);
    if (second !== secondAt) {
      const iso = new Date(second * 1000).toISOString();
      // "YYYY-MM-DDTHH:mm:ss." for years 0 to 9999; a six-digit year is formatted whole, every time
      secondText = iso.length === 24 ? `,"time":"${iso.slice(0, 20)}` : '';
      secondAt = iso.length === 24 ? second : Number.NaN;
    }
    cachedText = secondText ? `${secondText}${threeDigits(now - second * 1000)}Z"` : `,"time":"${new Date(now).toISOString()}"`;
    cachedAt = now;
  }
  return cachedText;
}
