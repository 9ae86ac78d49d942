/** Longest statement text kept on a span: a multi-row insert's placeholders would otherwise fill it. */
const STATEMENT_MAX = 1000;

/**
 * A statement as a span shows it: literals (quoted strings, numbers) replaced by `?`, runs of placeholders and
 * of placeholder rows shortened to their first, and at most STATEMENT_MAX characters. The values themselves
 * travel apart from the text (parameters), so none of them reaches the span.
 */
export function sqlShape(statement: string): string {
  const shape = statement
    .replace(/'(?:[^'\\]|\\.|'')*'/g, '?')
    .replace(/\b\d+(?:\.\d+)?\b/g, '?')
    .replace(/(\([?, ]*\))(?:,\s*\([?, ]*\))+/g, '$1, ...')
    .replace(/\?(?:\s*,\s*\?){2,}/g, '?, ...');
  return shape.length > STATEMENT_MAX ? `${shape.slice(0, STATEMENT_MAX)}...` : shape;
}

/** The statement's operation (`SELECT`, `INSERT`...): its first word, upper case. */
export function sqlOperation(statement: string): string {
  return /^\s*(\w+)/.exec(statement)?.[1]?.toUpperCase() ?? 'QUERY';
}
