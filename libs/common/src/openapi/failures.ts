/**
 * The failure answers of an operation, documented from what the operation is: who may call it, whether it
 * takes a body or required query parameters, whether it checks `revision`, and what its route declares
 * (business keys, rate limits). Failures that come with HTTP 200 (the body `status` tells them apart)
 * appear as named examples of the 200 envelope; the others as their own HTTP status, each with the envelope.
 */

/** The request change that causes a failure example: fields set in the body example, or query parameters left out or repeated. */
export interface FailureInput {
  set?: Record<string, unknown>;
  /** The whole body instead of the example (e.g. an object where rows are expected). */
  body?: unknown;
  /** Raw body text (not JSON). */
  raw?: string;
  omitQuery?: string;
  repeatQuery?: string;
}

/** A failure a route declares beside the ones derived from its shape. */
export interface Failure {
  status: number;
  /** When it happens, as the client sees it. */
  when: string;
  /** The `error` text of the example (default: a generic text of that status). */
  error?: string;
  /** What a client sends to get exactly this `error` (documented as the example's `x-input`). */
  input?: FailureInput;
}

/** Body statuses that come with HTTP 200. */
export const BODY_STATUSES = new Set([400, 409, 422, 1002, 1003, 1004]);

/** The extension in which `Operation` hands its own failures to the document finaliser (removed there). */
export const FAILURES_EXTENSION = 'x-failures';

export const ERROR_ENVELOPE = 'ErrorEnvelope';

/** The envelope of a failure: `data` null, `error` set, `path` the request path (`examplePath`, one of the document's). */
export const errorEnvelopeSchema = (examplePath: string) => ({
  type: 'object',
  required: ['timestamp', 'status', 'error', 'localizedError', 'path', 'extraData', 'data'],
  properties: {
    timestamp: { type: 'integer', format: 'int64', example: 1763800000000 },
    status: { type: 'integer', description: 'The failure: an HTTP status, or 1002/1003/1004 (see the operation)', example: 400 },
    error: { type: 'string', example: 'Unauthorized: no Bearer token in the Authorization header' },
    localizedError: {
      type: 'string',
      description:
        "`error` in the best of the caller's Accept-Language languages that the service has (shipped: en, zh-CN, de; and the texts the service adds), else English",
      example: 'Unauthorized: no Bearer token in the Authorization header',
    },
    path: { type: 'string', description: 'The request path', example: examplePath },
    extraData: {
      type: 'object',
      description:
        "`{}` unless the failure says more: an unexpected failure (status 500) carries `errorId`, which the service's log line of it names; the readiness probe's 503 carries its checks (`health`)",
      properties: {
        errorId: {
          type: 'string',
          description: 'Status 500 only: quote it when reporting the failure',
          example: '3f2b7c1e-9a4d-4e8b-b6f0-2c5d8e1a7b90',
        },
        traceId: {
          type: 'string',
          description: 'Status 500 of a traced request only (tracing on): the trace that holds it',
          example: '4bf92f3577b34da6a3ce929d0e0e4736',
        },
      },
      example: {},
    },
    data: { type: 'object', nullable: true, example: null },
  },
});

const TITLES: Record<number, string> = {
  400: 'Invalid value',
  401: 'Unauthenticated',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Stale revision',
  413: 'Body too large',
  422: 'Exists',
  429: 'Too many requests',
  431: 'Headers too large',
  503: 'Storage unavailable',
  1002: 'Missing parameter',
  1003: 'Wrong type',
  1004: 'Malformed JSON',
};

const ERRORS: Record<number, string> = {
  401: 'Unauthorized: no Bearer token in the Authorization header',
  403: 'Forbidden',
  404: 'Not found',
  409: 'revision 1 is stale',
  413: 'Request body too large',
  422: 'Record exists',
  429: 'Too many requests',
  431: 'Request header fields too large',
  503: 'Storage unavailable',
  1002: "Required parameter 'id' is missing",
  1004: 'Malformed JSON request body',
};

export const failureTitle = (status: number): string => TITLES[status] ?? `Status ${status}`;

/** The envelope a failure answers with, as an example value. */
export function failureExample(failure: Failure, path: string): Record<string, unknown> {
  const error = failure.error ?? ERRORS[failure.status] ?? failureTitle(failure.status);
  return { timestamp: 1763800000000, status: failure.status, error, localizedError: error, path, extraData: {}, data: null };
}

/** Several causes of one status read as one sentence each; the example is the first cause that has a text of its own. */
export function mergeFailures(failures: Failure[]): Failure[] {
  const byStatus = new Map<number, Failure>();
  for (const f of failures) {
    const known = byStatus.get(f.status);
    if (!known) byStatus.set(f.status, { ...f });
    else {
      if (!known.when.includes(f.when)) known.when = `${known.when} ${f.when}`;
      if (known.error === undefined && f.error !== undefined) Object.assign(known, { error: f.error, input: f.input });
    }
  }
  return [...byStatus.values()].sort((a, b) => a.status - b.status);
}
