/**
 * The OpenAPI documents of both services: defaults on create, the documents as clients meet them, as code
 * generators read them, every answer against its documented schema, Swagger UI's "Try it out" of every
 * save, Swagger UI's own setup, and the spec's operations in the documents.
 * The cases live in ./openapi/ and run in this one file because Jest loads the app's modules once per
 * test file; each case module boots its own app(s) in its own describe.
 */
import './openapi/openapi-defaults';
import './openapi/openapi-documents';
import './openapi/openapi-clients';
import './openapi/openapi-answers';
import './openapi/swagger-ui-examples';
import './openapi/swagger-ui-setup';
import './openapi/spec-operations';
