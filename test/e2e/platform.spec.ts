/**
 * Platform behaviour not specific to one resource: the envelope and its failures, authentication and
 * permissions, X-Request-Id, the OpenAPI document's security, RS256 tokens, storage unavailable, readiness
 * on a database without its migrations, a statement past its deadline, every resource's title translated, and
 * admission under overload.
 * The cases live in ./platform/ and run in this one file because Jest loads the app's modules once per
 * test file; each case module boots its own app(s) in its own describe.
 */
import './platform/envelope-and-access';
import './platform/resource-titles';
import './platform/apps-started-at-once';
import './platform/schema-readiness';
import './platform/statement-deadline';
import './platform/overload';
