/**
 * Imports: the configuration group's synchronous and asynchronous imports and batch writes, importStatus,
 * the consumer's trust checks, upserts by key, an unreachable Kafka, the outbox relay across replicas, and the bounds of XLSX workbooks.
 * The cases live in ./imports/ and run in this one file because Jest loads the app's modules once per
 * test file; each case module boots its own app(s) in its own describe.
 */
import './imports/configuration-imports';
import './imports/import-status';
import './imports/import-trust';
import './imports/import-upsert';
import './imports/kafka-unreachable';
import './imports/outbox-relay';
import './imports/xlsx-bounds';
