import { namedAnswerSchema } from '../../openapi/api-envelope';
import { Failure } from '../../openapi/failures';
import { render } from '../../i18n/message';
import { AnyResource } from '../fields/resource';
import { EXPORT_BATCH_ROWS, exportsBusyText, tooManyRowsText } from './record-export';

/** The answer of an export: the file itself, in the format Accept chose. */
export const EXPORT_FILE_SCHEMA = namedAnswerSchema('ExportFile', {
  type: 'string',
  format: 'binary',
  description: 'The file (CSV, NDJSON or XLSX, as Accept chose); a failure before its first byte is the envelope instead',
});

export const EXPORT_REQUEST_EXAMPLES = {
  everything: { summary: 'Every live record, in the default order', value: {} },
};

/** What an export does, in the operation's description. */
export function exportDescription(r: AnyResource): string {
  return [
    "The live records the page's filters match, in the page's order (`sqlQuerySorter` as page; `current` and `pageSize` are ignored), as one file: " +
      '`Accept: text/csv` (the default: UTF-8 with a byte order mark, RFC 4180), `application/x-ndjson` (one JSON object per line) or ' +
      '`application/vnd.openxmlformats-officedocument.spreadsheetml.sheet` (XLSX). ' +
      `\`Content-Disposition: attachment; filename="${r.path.split('/').pop()}-<yyyyMMdd-HHmmss>.<csv|ndjson|xlsx>"\` (UTC).`,
    r.exportSheet
      ? `The XLSX file is in the import's format (columns ${r.exportSheet.join(' | ')}): importing it leaves every entry as it is; CSV and NDJSON carry every field.`
      : "Columns: the record's fields in the order its JSON has them (secrets never); times in epoch milliseconds, and in XLSX a date column (UTC) beside each.",
    'Every row comes from one read view (the records as they were when the export started), streamed as it is read ' +
      `(${EXPORT_BATCH_ROWS} rows per statement). A text cell starting with \`=\`, \`+\`, \`-\`, \`@\`, tab or carriage return is written ` +
      "in CSV with a leading `'`; XLSX writes text as text cells, never formulas.",
    'At most EXPORT_MAX_ROWS rows (more: status 400 before any byte), and at most EXPORT_CONCURRENCY exports at once per replica (beyond: HTTP 429 with Retry-After).',
  ].join('\n\n');
}

export function exportFailures(): Failure[] {
  return [
    {
      status: 400,
      when: 'More records match than EXPORT_MAX_ROWS; nothing is sent but the envelope, which names both numbers.',
      error: render(tooManyRowsText(1_000_001, 1_000_000)),
    },
    {
      status: 429,
      when: 'EXPORT_CONCURRENCY exports are running on this replica: HTTP 429 with Retry-After; retry then.',
      error: render(exportsBusyText(2)),
    },
  ];
}
