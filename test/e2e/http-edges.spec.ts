/**
 * HTTP edges of both services: the HTTP server under every entry point, request bodies (compressed ones
 * too, and ones that cannot be read), the client address behind a proxy, CORS, translated errors, secrets
 * kept out of logs, Bearer token claims, the operations endpoints and logs, and what a failed request's line says.
 * The cases live in ./http-edges/ and run in this one file because Jest loads the app's modules once per
 * test file; each case module boots its own app(s) in its own describe.
 */
import './http-edges/body-bombs';
import './http-edges/body-edges';
import './http-edges/body-failures';
import './http-edges/client-ip';
import './http-edges/cors';
import './http-edges/error-translation-cache';
import './http-edges/explained-errors';
import './http-edges/failure-lines';
import './http-edges/secret-redaction';
import './http-edges/token-claims';
import './http-edges/observability';
import './http-edges/http-server';
