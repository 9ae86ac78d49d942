/**
 * A business key that travels in query strings and is compared exactly across services (one service registers
 * it, another accepts it): a plain URL-safe alphabet, no surrounding whitespace (MySQL PAD SPACE would make
 * `a` and `a ` the same key).
 */
export const URL_SAFE_KEY_MAX = 64;
export const URL_SAFE_KEY_PATTERN = new RegExp(`^[A-Za-z0-9._:-]{1,${URL_SAFE_KEY_MAX}}$`);
export const URL_SAFE_KEY_MESSAGE = `$property must be 1 to ${URL_SAFE_KEY_MAX} characters of [A-Za-z0-9._:-]`;

/** The text options of such a key field (Field.text, Text): spread, then add required, example and description. */
export const URL_SAFE_KEY_TEXT = {
  max: URL_SAFE_KEY_MAX,
  key: true,
  pattern: URL_SAFE_KEY_PATTERN,
  patternMessage: URL_SAFE_KEY_MESSAGE,
} as const;
