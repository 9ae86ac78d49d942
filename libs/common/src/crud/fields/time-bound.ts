import { ValidateBy } from 'class-validator';

const HOUR_MS = 3_600_000;

/**
 * How far a time that has already happened (a snapshot's moment, the start of a usage) may lie after the
 * server's clock: the clocks of the devices that report such times may run ahead. A later time is refused,
 * so no record can put itself out of reach of retention by age, which goes by that time.
 */
export const CLOCK_SKEW_ALLOWANCE_MS = 24 * HOUR_MS;

/** The bound as a write body's schema tells it. */
export const NOT_LATER_THAN_NOW_TEXT = `at most ${CLOCK_SKEW_ALLOWANCE_MS / HOUR_MS} hours after the server's current time`;

/**
 * Epoch milliseconds at most CLOCK_SKEW_ALLOWANCE_MS after now, read when the body is validated; a value that
 * is not a number is left to the field's type rule.
 */
export function NotLaterThanNow(): PropertyDecorator {
  return ValidateBy(
    {
      name: 'notLaterThanNow',
      // the allowance in hours: the message's parameter
      constraints: [CLOCK_SKEW_ALLOWANCE_MS / HOUR_MS],
      validator: { validate: (value) => typeof value !== 'number' || value <= Date.now() + CLOCK_SKEW_ALLOWANCE_MS },
    },
    // the message as an option (not a default message): validation errors read it as the rule's template
    { message: '$property must not be later than $constraint1 hours from now' },
  );
}
