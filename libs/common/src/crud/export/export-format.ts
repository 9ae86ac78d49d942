/** The file formats an export is written in, chosen by the request's Accept header. */
export interface ExportFormat {
  name: 'csv' | 'ndjson' | 'xlsx';
  mediaType: string;
  /** The Content-Type sent. */
  contentType: string;
  extension: string;
}

export const CSV: ExportFormat = { name: 'csv', mediaType: 'text/csv', contentType: 'text/csv; charset=utf-8', extension: 'csv' };
export const NDJSON: ExportFormat = {
  name: 'ndjson',
  mediaType: 'application/x-ndjson',
  contentType: 'application/x-ndjson; charset=utf-8',
  extension: 'ndjson',
};
export const XLSX: ExportFormat = {
  name: 'xlsx',
  mediaType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  extension: 'xlsx',
};
export const EXPORT_FORMATS = [CSV, NDJSON, XLSX];

/** Accept headers longer than this are not read further (a bound on the work of parsing one). */
const ACCEPT_READ_MAX = 1024;

/**
 * The format the Accept header prefers among the three (by its q-values, then its order); CSV when it names none of
 * them (no header, any type, `application/json`): the export's default.
 */
export function exportFormatOf(accept: string | undefined): ExportFormat {
  if (!accept) return CSV;
  let best: { format: ExportFormat; q: number } | undefined;
  for (const range of accept.slice(0, ACCEPT_READ_MAX).split(',')) {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const format = EXPORT_FORMATS.find((f) => f.mediaType === type);
    if (!format) continue;
    const qParameter = parameters.find((p) => p.startsWith('q='));
    const q = qParameter === undefined ? 1 : Number(qParameter.slice(2));
    if (Number.isFinite(q) && q > 0 && (!best || q > best.q)) best = { format, q };
  }
  return best?.format ?? CSV;
}

const two = (n: number) => String(n).padStart(2, '0');

/** `<resource>-<yyyyMMdd-HHmmss>.<ext>`, the time in UTC. */
export function exportFileName(resource: string, format: ExportFormat, at: Date): string {
  const day = `${at.getUTCFullYear()}${two(at.getUTCMonth() + 1)}${two(at.getUTCDate())}`;
  const time = `${two(at.getUTCHours())}${two(at.getUTCMinutes())}${two(at.getUTCSeconds())}`;
  return `${resource}-${day}-${time}.${format.extension}`;
}
