import type { Response } from 'express';
import { AttemptsLocked } from './token-throttle';

/** Adds Retry-After to a 429 of a token call, so a device knows when to try again. */
export async function withRetryAfter<T>(response: Response, result: Promise<T>): Promise<T> {
  try {
    return await result;
  } catch (error) {
    if (error instanceof AttemptsLocked) response.setHeader('Retry-After', String(error.retryAfterSeconds));
    throw error;
  }
}
