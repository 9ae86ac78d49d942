import { MESSAGE_MAX } from '../../fields/text-limits';

/**
 * Why an attempt failed. `permanent`: trying again cannot help until someone changes the data (no
 * configuration, no SMS package), so the message is FAILED at once instead of backing off.
 * `unreachable`: the server was not reached or stalled (counted by the configuration's circuit breaker).
 */
export class DeliveryFailure extends Error {
  constructor(
    message: string,
    readonly permanent = false,
    readonly unreachable = false,
  ) {
    super(message);
    this.name = 'DeliveryFailure';
  }
}

/**
 * The text stored as `errorMessage`: the failure's message (an SMTP reply such as `550 mailbox
 * unavailable`, a provider's HTTP status), with every secret of the attempt blanked out, on one line,
 * within the column's length.
 */
export function failureText(error: unknown, secrets: (string | null | undefined)[]): string {
  let text = error instanceof Error ? error.message : String(error);
  for (const secret of secrets) if (secret) text = text.split(secret).join('***');
  text = text.replace(/\s+/g, ' ').trim() || 'delivery failed';
  return text.length > MESSAGE_MAX ? `${text.slice(0, MESSAGE_MAX - 3)}...` : text;
}
