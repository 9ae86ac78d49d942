/** The longest wait of a growing delay: a message's retry backoff, a paused configuration's pause. */
export const GROWING_DELAY_CAP_MS = 3600_000;

/** `baseMs` before the second try, doubled for each further one (`nth` counts from 1), capped at an hour. */
export const growingDelay = (baseMs: number, nth: number): number => Math.min(GROWING_DELAY_CAP_MS, baseMs * 2 ** (nth - 1));
