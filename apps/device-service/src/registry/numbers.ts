/**
 * Server and device numbers travel in query strings and are globally unique keys: a plain,
 * URL-safe alphabet, no surrounding whitespace (MySQL PAD SPACE), compared exactly.
 */
export const DEVICE_NUMBER_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;
export const DEVICE_NUMBER_MESSAGE = '$property must be 1 to 64 characters of [A-Za-z0-9._:-]';

/** Provisioning secrets: long enough that guessing is hopeless even without the throttle. */
export const SECRET_MIN_LENGTH = 16;
export const SECRET_MAX_LENGTH = 128;
