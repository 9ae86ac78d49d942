/**
 * Message delivery: e-mail over SMTP, SMS through the http provider, and dispatchers of several replicas,
 * against local sinks (./delivery/delivery-sinks.ts).
 * The cases live in ./delivery/ and run in this one file because Jest loads the app's modules once per
 * test file; each case module boots its own app(s) in its own describe.
 */
import './delivery/delivery-email';
import './delivery/delivery-sms';
import './delivery/delivery-replicas';
import './delivery/delivery-fairness';
import './delivery/delivery-from-address';
import './delivery/delivery-scan-plans';
