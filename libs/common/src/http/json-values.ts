const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;

/**
 * An upper bound of the values (objects, arrays, strings, numbers, literals) in UTF-8 JSON text, from
 * one pass over its bytes: every value is the root, the first of its container, or follows a comma, so
 * 1 + containers + commas outside strings is never less. Stops counting once past `stopAbove`.
 * Bytes of multi-byte UTF-8 characters are all 0x80 or above and never mistaken for these ASCII marks.
 */
export function countJsonValues(text: Uint8Array, stopAbove: number): number {
  let count = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if ((byte === COMMA || byte === OPEN_ARRAY || byte === OPEN_OBJECT) && ++count > stopAbove) return count;
  }
  return count;
}
