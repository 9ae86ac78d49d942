const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;

/** Index of the quote that closes the string whose opening quote is at `open` (-1 when none does). */
function closingQuote(text: Uint8Array, open: number): number {
  let quote = text.indexOf(QUOTE, open + 1);
  for (;;) {
    if (quote < 0) return -1;
    let backslashes = 0;
    while (text[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf(QUOTE, quote + 1);
  }
}

/**
 * An upper bound of the values (objects, arrays, strings, numbers, literals) in UTF-8 JSON text, from
 * one pass over its bytes: every value is the root, the first of its container, or follows a comma, so
 * 1 + containers + commas outside strings is never less. Stops counting once past `stopAbove`. Strings are
 * skipped with a native search for their closing quote, so long texts cost next to nothing. Bytes of
 * multi-byte UTF-8 characters are all 0x80 or above and never mistaken for these ASCII marks.
 */
export function countJsonValues(text: Uint8Array, stopAbove: number): number {
  let count = 1;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i];
    if (byte === QUOTE) {
      i = closingQuote(text, i);
      if (i < 0) break; // unterminated: JSON.parse refuses it
    } else if ((byte === COMMA || byte === OPEN_ARRAY || byte === OPEN_OBJECT) && ++count > stopAbove) return count;
  }
  return count;
}
