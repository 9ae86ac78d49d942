/**
 * What the database side knows of the request it works for: whether the request still holds its admission (admitted
 * and not yet ended) and whether its client has gone. Work a request started that goes on after its end (a pass of
 * background work it kicked) is no longer the request's.
 */
export interface RequestTicket {
  /** Admitted and not yet ended: its statements count as the request's (persistence/request-connections.ts). */
  readonly open: boolean;
  /** Its client left before the answer: nothing more is done for it. */
  readonly gone: boolean;
  /** Calls `listener` once if its client leaves before the answer (at once if it has). */
  whenGone(listener: () => void): void;
  /**
   * Frees the request's place under the in-flight limit while it stays open (its statements still count as the
   * request's): for a long answer admitted under a bound of its own (an export), which the latency-based limit
   * would otherwise count as one slow request for its whole length.
   */
  leaveInFlightLimit(): void;
}

const TICKET = Symbol('admission ticket');

export function setTicket(request: object, ticket: RequestTicket): void {
  (request as { [TICKET]?: RequestTicket })[TICKET] = ticket;
}

export function ticketOf(request: object): RequestTicket | undefined {
  return (request as { [TICKET]?: RequestTicket })[TICKET];
}
