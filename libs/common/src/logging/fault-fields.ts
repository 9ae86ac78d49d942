/** Characters of an error's message and stack that a fault's line keeps: a message may embed a whole input. */
const MESSAGE_CHARS = 2_000;
const STACK_CHARS = 16_000;

/** What a fault's log line says of the error: its class, driver or system code, message and stack. */
export interface FaultFields {
  name: string;
  code?: string;
  message: string;
  stack?: string;
}

const bounded = (text: string, chars: number): string => (text.length > chars ? `${text.slice(0, chars)}…` : text);

/**
 * The error of a server fault (500) for the log only, never for a response. Named fields, not the error object:
 * a driver's error carries its SQL and parameters (the request's values) in properties of its own.
 */
export function faultFields(exception: unknown): FaultFields {
  if (!(exception instanceof Error)) return { name: typeof exception, message: bounded(String(exception), MESSAGE_CHARS) };
  const { code, driverError } = exception as { code?: unknown; driverError?: { code?: unknown } };
  const anyCode = driverError?.code ?? code;
  return {
    name: exception.name,
    ...(typeof anyCode === 'string' || typeof anyCode === 'number' ? { code: String(anyCode) } : {}),
    message: bounded(exception.message, MESSAGE_CHARS),
    ...(exception.stack ? { stack: bounded(exception.stack, STACK_CHARS) } : {}),
  };
}
