import type { Response } from 'express';
import type { RefusedProperty } from '../http/app-exception';

/** Refused properties a request line names at most, and the characters of a property path it keeps. */
export const MAX_REFUSED_ON_LINE = 20;
export const MAX_PROPERTY_CHARS = 100;

/**
 * What the request line adds about a failed request, noted on the response by the exception filter (the line
 * is written when the response ends, outside the filter): why a request was refused, or the id of a fault.
 */
export interface FailureNote {
  /** A 500's id: in the envelope's `extraData` and in the fault's own line, so a caller can quote it. */
  errorId?: string;
  /** The failing properties of a validation refusal and the rule each broke: names, never values. */
  refused?: RefusedProperty[];
  /** How many failing properties there were beyond those named. */
  refusedOmitted?: number;
  /** What the operator may check about a refusal (a token signed with another secret), never said to the caller. */
  hint?: string;
}

const NOTE = Symbol('failureNote');

type Noted = Response & { [NOTE]?: FailureNote };

export function noteFailure(res: Response, note: FailureNote): void {
  (res as Noted)[NOTE] = note;
}

export function failureNoteOf(res: Response): FailureNote | undefined {
  return (res as Noted)[NOTE];
}

/**
 * The refused properties as a line carries them: a bounded number, each path cut to a bounded length (a batch
 * of thousands of bad rows, or property names a client made up, keep the line short).
 */
export function refusalNote(refused: readonly RefusedProperty[]): FailureNote {
  const named = refused.slice(0, MAX_REFUSED_ON_LINE).map(({ property, rule }) => ({
    property: property.length > MAX_PROPERTY_CHARS ? `${property.slice(0, MAX_PROPERTY_CHARS)}…` : property,
    rule,
  }));
  return refused.length > named.length ? { refused: named, refusedOmitted: refused.length - named.length } : { refused: named };
}
