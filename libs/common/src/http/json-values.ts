const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** JSON's own whitespace (RFC 8259): String.prototype.trim would also take U+00A0, U+2028, ..., which JSON.parse refuses. */
const JSON_WHITESPACE = /^[\x20\x09\x0a\x0d]*$/;

/** Index of the quote that closes the string whose opening quote is at `open` (-1 when none does). */
function closingQuote(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  for (;;) {
    if (quote < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
}

/**
 * Bounds of a JSON text's shape. A record is the text's value when that is an object, and each element
 * when it is an array (a row of a batch): what one conversion and validation call walks in one go.
 */
export interface JsonBounds {
  /** Values in the whole text. */
  values: number;
  /** Nesting of objects and arrays; the outermost is level 1. */
  depth: number;
  /** Values in one record. */
  recordValues: number;
  /** Properties of all the objects in one record. */
  recordProperties: number;
}

export interface JsonShape {
  /** The first bound the text goes past, and in which element when it is an array. */
  excess?: { bound: keyof JsonBounds; row?: number };
  /** Of an array text: the offsets of its `[`, of each comma between its elements, and of the mark that closes it. */
  separators?: number[];
}

/** Characters measured between two calls of measureJson's `pause`. */
const CHARS_PER_PAUSE = 64 * 1024;

/**
 * The shape of JSON text, from one pass over it before it is parsed: its values are counted as an upper
 * bound (every value is the root, the first of its container, or follows a comma, so 1 + containers +
 * commas outside strings is never less), its properties exactly (a colon outside strings is one), and the
 * pass stops at the first bound exceeded. Strings are skipped with a native search for their closing
 * quote, so long texts cost little; a text of many short strings takes tens of milliseconds per 10 MB, so
 * `pause` is awaited every CHARS_PER_PAUSE characters when given. Malformed text is measured as far as it
 * goes; JSON.parse refuses it afterwards.
 */
export async function measureJson(text: string, bounds: JsonBounds, pause?: () => Promise<void>): Promise<JsonShape> {
  let values = 1;
  let recordValues = 1;
  let properties = 0;
  let depth = 0;
  let row: number | undefined; // the element being measured, when the text is an array
  const separators: number[] = [];
  const past = (bound: keyof JsonBounds): JsonShape => ({ excess: { bound, row } });
  let pauseAt = pause ? CHARS_PER_PAUSE : Infinity;
  for (let i = 0; i < text.length; i++) {
    if (i >= pauseAt) {
      await pause!();
      pauseAt = i + CHARS_PER_PAUSE;
    }
    const mark = text.charCodeAt(i);
    if (mark === QUOTE) {
      i = closingQuote(text, i);
      if (i < 0) break;
    } else if (mark === OPEN_ARRAY || mark === OPEN_OBJECT) {
      if (++depth > bounds.depth) return past('depth');
      if (++values > bounds.values) return past('values');
      if (depth === 1 && values === 2 && mark === OPEN_ARRAY) {
        row = 0;
        separators.push(i);
      } else if (depth > 1 && ++recordValues > bounds.recordValues) return past('recordValues');
    } else if (mark === COMMA) {
      if (++values > bounds.values) return past('values');
      if (depth === 1 && row !== undefined) {
        row++;
        recordValues = 1;
        properties = 0;
        separators.push(i);
      } else if (++recordValues > bounds.recordValues) return past('recordValues');
    } else if (mark === COLON) {
      if (++properties > bounds.recordProperties) return past('recordProperties');
    } else if ((mark === CLOSE_ARRAY || mark === CLOSE_OBJECT) && --depth === 0 && row !== undefined && separators.length === row + 1)
      separators.push(i);
  }
  return row === undefined ? {} : { separators };
}

/**
 * Parses an array text element by element (its `separators` from measureJson), giving the event loop a
 * turn through `pause` between elements: JSON.parse of a whole batch runs in one go, and its time grows
 * with the distinct shapes of its objects (50,000 rows with their keys in varying order took about a
 * second). Throws SyntaxError for malformed text, as JSON.parse would: the text is the elements joined
 * by commas inside brackets, so it is valid exactly when each element is.
 */
export async function parseJsonRows(text: string, separators: number[], pause: () => Promise<void>): Promise<unknown[]> {
  const close = separators[separators.length - 1];
  if (separators.length < 2 || text.charCodeAt(close) !== CLOSE_ARRAY || !JSON_WHITESPACE.test(text.slice(close + 1)))
    throw new SyntaxError('Malformed JSON array');
  if (separators.length === 2 && JSON_WHITESPACE.test(text.slice(separators[0] + 1, close))) return [];
  const rows: unknown[] = new Array(separators.length - 1);
  for (let r = 0; r < rows.length; r++) {
    await pause();
    rows[r] = JSON.parse(text.slice(separators[r] + 1, separators[r + 1]));
  }
  return rows;
}
