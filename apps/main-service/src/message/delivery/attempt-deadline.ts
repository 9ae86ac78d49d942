import { DeliveryFailure } from './delivery-failure';

/**
 * Runs one attempt at a server or provider under a hard deadline (DISPATCH_ATTEMPT_TIMEOUT_MS). `attempt` gets
 * a signal that aborts at the deadline, on which it closes its connection: a server that keeps the exchange
 * alive (an EHLO reply fed a line at a time, an answer trickled a byte at a time) is never idle, so no socket
 * timeout ends it. The attempt is not waited for past the deadline either: a step that does not heed the
 * signal (the address lookup, bounded on its own) ends in the background. Past the deadline: TIMEOUT, retried.
 */
export async function withinDeadline<T>(deadlineMs: number, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(DeliveryFailure.of('TIMEOUT'));
    }, deadlineMs);
  });
  try {
    return await Promise.race([attempt(controller.signal), deadline]);
  } catch (error) {
    // once aborted, whatever the attempt reports (an abort error, a destroyed socket) is the deadline's doing
    throw controller.signal.aborted ? DeliveryFailure.of('TIMEOUT') : error;
  } finally {
    clearTimeout(timer);
  }
}
