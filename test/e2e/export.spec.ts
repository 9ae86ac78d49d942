/**
 * Export (docs/contract.md "Export") beyond what the standard suite checks per resource: formula injection, the
 * bounds (EXPORT_MAX_ROWS, EXPORT_CONCURRENCY), admission outside the in-flight limit, a client that leaves
 * mid-stream, keyset batches over many rows, and the translations' workbook imported back.
 */
import './export/translation-export';
import './export/export-bounds';
