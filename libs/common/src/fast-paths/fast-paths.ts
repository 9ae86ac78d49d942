import { FastPathsConfig } from '../config/fast-paths.config';
import { Environment, readConfig } from '../config/environment';

/**
 * Fast paths: shortcuts past what a library's public API costs, each kept here so that a library upgrade
 * that breaks one is looked for in one place, and all turned off by FAST_PATHS=off (the service then uses
 * only public APIs). Each must answer exactly what the public way answers; the specs beside them compare, and
 * test/e2e/platform/fast-paths-both-ways.ts walks every operation of both services each way and compares the
 * answers, request lines and metrics.
 *
 * - prepared-finds.ts, prepared-updates.ts, prepared-statement.ts (used by TenantTable): SQL that TypeORM's
 *   query builder writes once per shape of find, count or update, with a marker in place of each value,
 *   then run with each call's values. Replaces: building the statement on every call (repository
 *   find/count, query builder update). Must match: the repository's rows (selected and hidden columns,
 *   transformers both ways, order, offset, limit), counts and affected-row counts.
 * - pooled-statement.ts (used by PreparedFinds, PreparedUpdates and TenantTable.insertInRuns for a single row's
 *   INSERT): on MySQL/MariaDB those statements run by mysql2 directly, outside a transaction as server-side prepared
 *   statements on the pool, inside one as text on the connection the transaction's query runner holds. Replaces:
 *   TypeORM's query runner for each call. Must match: the runner's rows and affected-row counts, its connection
 *   (a transaction's statements see its writes and roll back with it), and its QueryFailedError around a driver error.
 * - PreparedFinds.findPage (used by LiveRecordTable.findPage): a first page's deferred join
 *   (crud/tables/deferred-join.ts) prepared the same way; later windows are not (unbounded offsets would fill
 *   the cache). Replaces: two query builders and getMany() on every filtered first page or list. Must match:
 *   the builder's rows, order (ties by identifier), transformed values, hidden columns left out.
 * - validation-metadata-cache.ts (installed by validationPipe): class-validator's rules of a class kept
 *   until any rule is registered. Replaces: the storage's scan of every decorated class on each validate().
 *   Must match: the same rules per class and option set, rules registered later (mapped types) included.
 * - compiled-validation.ts (used by validationPipe and checkRows): a class's rules compiled once into each rule's own
 *   validate function, run on a JSON body of scalars and scalar lists; the instance made by copying its keys.
 *   Replaces: class-transformer's plainToInstance and class-validator's executor for a body that passes (any other
 *   body, and any class with nested, promised or class-transformer rules, goes their way). Must match: the pipe's
 *   instance (class, keys in order, defaults, unknown keys stripped) and its accepting exactly what the pipe accepts.
 * - plain-json-body.ts (used by readRequestBody): a JSON body with a Content-Length within the limit and no
 *   Content-Encoding read chunk by chunk into one buffer. Replaces: body-parser's type and charset parsing, raw-body
 *   and iconv-lite's decoding. Must match: the text and every failure (type, status) body-parser gives; any other
 *   body goes to body-parser.
 * - json-reply.ts (used by the app's res.json, see http/sent-status.ts): an object sent as JSON with its
 *   Content-Type and Content-Length. Replaces: Express's json and send. Must match: Express's status, headers and
 *   bytes; settings, headers or requests that make Express do more (ETag, a conditional GET, HEAD) go to Express.
 * - route-groups.ts (used by AppHttpAdapter): literal routes grouped by parent path, one map lookup per
 *   request. Replaces: Express trying the application's few hundred route layers one by one. Must match:
 *   Express's matching (case, trailing slash), req.baseUrl + req.route.path as registered, middleware order.
 * - direct-routes.ts (used by AppHttpAdapter's server): a request for a literal route goes to the app's middlewares and
 *   that route's layer directly, each called through its own layer. Replaces: Express's app.handle and its router's
 *   walk of the app's stack, layer by layer. Must match: the layers Express calls, in order, and the request as
 *   Express sets it up for each (url, baseUrl, params, route); errors and next() go on in Express's own router.
 * - compiled-handlers.ts (installed with direct-interceptor.ts): a route whose only interceptor is the envelope
 *   interceptor gets a handler of its own at start-up: guards, status and headers, `around` with the pipes and the
 *   controller's method, the answer, with one execution context per request for the guards and the interceptor, whose
 *   switchToHttp answers with the context itself. Replaces: Nest's route handler with its per-request ReplaySubject,
 *   stream watching and interceptor chain, and the guard consumer's own context. Must match: Nest's handler; an
 *   Observable, a stream or a StreamableFile goes to Nest's own response function as Nest would give it.
 * - direct-interceptor.ts (installed by CommonModule's interceptor provider): the envelope interceptor's rule run as
 *   one awaited call. Replaces: Nest's per-request interceptor chain of observables. Must match: the interceptor's
 *   `intercept` (body read after the guards, handler, envelope, errors).
 *
 * Not a fast path: crud/tables/exclusive-transaction.ts queues the one SQLite connection's statements while
 * a transaction that gives the event loop a turn is open. It is a correctness fix (other requests' writes
 * would otherwise join that transaction), so it stays on whatever FAST_PATHS says.
 */

/** Whether the fast paths are on (FAST_PATHS, read from the environment of the moment; default on). */
export function fastPathsOn(env: Environment = process.env): boolean {
  return readConfig(FastPathsConfig, env).fastPaths === 'on';
}
