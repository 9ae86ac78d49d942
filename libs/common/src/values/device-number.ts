/**
 * Device, server, box, scanner and card numbers, one rule in every service: the number one service registers
 * is the number another reports. Numbers travel in query strings and are
 * unique keys: a plain, URL-safe alphabet, no surrounding whitespace (MySQL PAD SPACE), compared exactly.
 */
export const DEVICE_NUMBER_MAX = 64;
export const DEVICE_NUMBER_PATTERN = new RegExp(`^[A-Za-z0-9._:-]{1,${DEVICE_NUMBER_MAX}}$`);
export const DEVICE_NUMBER_MESSAGE = `$property must be 1 to ${DEVICE_NUMBER_MAX} characters of [A-Za-z0-9._:-]`;

/** The text options of a device number field (Field.text, Text): spread, then add required, example and description. */
export const DEVICE_NUMBER_TEXT = {
  max: DEVICE_NUMBER_MAX,
  key: true,
  pattern: DEVICE_NUMBER_PATTERN,
  patternMessage: DEVICE_NUMBER_MESSAGE,
} as const;
