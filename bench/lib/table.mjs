// A benchmark's results as a Markdown table on standard output (what docs/performance.md quotes).

/** Prints `header` and `rows` (arrays of cells) as a Markdown table, each column as wide as its widest cell. */
export function printTable(header, rows) {
  const widths = header.map((_, c) => Math.max(...[header, ...rows].map((row) => String(row[c]).length)));
  const line = (row) => `| ${row.map((cell, c) => String(cell).padEnd(widths[c])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}
