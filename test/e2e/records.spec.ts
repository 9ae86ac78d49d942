/**
 * Reading and writing records: saveOrUpdate, page totals, listCache and the saveMissing limit across
 * replicas, the saveMissing draft cap, listCache and translations, the notification-user inbox, the query plans of pages and history reads,
 * retention, and null as "not given" in every write body.
 * The cases live in ./records/ and run in this one file because Jest loads the app's modules once per
 * test file; each case module boots its own app(s) in its own describe.
 */
import './records/save-or-update';
import './records/page-total';
import './records/page-snapshot';
import './records/replica-list-cache';
import './records/translation-bundles';
import './records/replica-save-missing';
import './records/replica-upsert-twins';
import './records/replica-history';
import './records/save-missing-drafts';
import './records/configuration-cache-translation';
import './records/notification-user';
import './records/explain';
import './records/explain-large';
import './records/explain-history';
import './records/retention';
import './records/history-paths';
import './records/null-sweep';
