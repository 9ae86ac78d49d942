/**
 * Message delivery: e-mail over SMTP, SMS through the http provider, and dispatchers of several replicas,
 * against local sinks (test/support/delivery-sinks.ts). Fairness across tenants, which is measured in seconds,
 * runs in the timing leg (test/timing/delivery-fairness.spec.ts).
 * The cases live in ./delivery/ and run in this one file because Jest loads the app's modules once per
 * test file; each case module boots its own app(s) in its own describe.
 */
import './delivery/delivery-email';
import './delivery/delivery-sms';
import './delivery/delivery-replicas';
import './delivery/delivery-from-address';
import './delivery/delivery-scan-plans';
import './delivery/delivery-deadlines';
