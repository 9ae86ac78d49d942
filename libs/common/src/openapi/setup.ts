import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { documentGuardFailures } from '../auth/operation';
import { finaliseDocument } from './document';
import { TAG_FILTER_PLUGINS, TAG_FILTER_SCRIPT } from './swagger-ui-tag-filter';
import { bodyClassesOf } from './failure-inputs';
import { noteOperationIds } from '../tracing/operation-ids';

type SecuritySchemeObject = Parameters<DocumentBuilder['addSecurity']>[1];

export interface ServiceDescription {
  /** Global prefix without slashes, e.g. `order-service`. */
  prefix: string;
  title: string;
  description: string;
  /** Security schemes besides Bearer (name → scheme), referenced by operations with `@ApiSecurity(name)`. */
  securitySchemes?: Record<string, SecuritySchemeObject>;
}

/** Shown in Swagger UI's Authorize dialog: where a token comes from. */
const BEARER_DESCRIPTION =
  'A JWT with `sub`, `tenantId`, `exp` and `roles` or `permissions`. For development: ' +
  '`npm run --silent token -- --tenant acme --user alice --roles administrator`; ' +
  'in production, from your identity provider.';

/**
 * Swagger UI for documents of a hundred operations and more: a filter box over the tags (any case, part of a tag:
 * swagger-ui-tag-filter.ts), tags collapsed
 * until opened, deep links (`#/<tag>/<operationId>`) to share an operation, and the token kept across reloads.
 */
export const SWAGGER_UI_OPTIONS = { persistAuthorization: true, filter: true, deepLinking: true, docExpansion: 'none' };

/**
 * Where apps of one service and configuration find the document one of them built: a process that starts the same
 * service many times over (the test suites) builds it once. The document depends on nothing else.
 */
export interface SharedDocument {
  /** The document built for this service and configuration before, if any. */
  get(): OpenAPIObject | undefined;
  /** Keeps the document just built. */
  set(document: OpenAPIObject): void;
}

/**
 * OpenAPI 3 at `{prefix}/v3/api-docs`, Swagger UI with a Bearer "Authorize" button at `{prefix}/swagger-ui`.
 * The document is built on first use (or taken from `shared`); the returned function builds it (once) at a time of
 * the caller's choosing: a service builds it before it listens, so no request waits the fraction of a second it takes.
 */
export function setupOpenApi(app: INestApplication, service: ServiceDescription, shared?: SharedDocument): () => OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle(service.title)
    .setDescription(service.description)
    .setVersion(process.env.npm_package_version ?? '0.1.0')
    // paths carry the service prefix: the server is the host the document was fetched from
    .addServer('/')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: BEARER_DESCRIPTION });
  for (const [name, scheme] of Object.entries(service.securitySchemes ?? {})) builder.addSecurity(name, scheme);
  const config = builder.build();
  documentGuardFailures();
  let document: OpenAPIObject | undefined;
  const built = (): OpenAPIObject => {
    if (document) return document;
    document = shared?.get();
    if (!document) {
      document = finaliseDocument(SwaggerModule.createDocument(app, config) as never, bodyClassesOf(app)) as unknown as OpenAPIObject;
      shared?.set(document);
    }
    noteOperationIds(document); // the server spans name their operation (tracing only)
    return document;
  };
  SwaggerModule.setup(`${service.prefix}/swagger-ui`, app, built, {
    jsonDocumentUrl: `${service.prefix}/v3/api-docs`,
    yamlDocumentUrl: `${service.prefix}/v3/api-docs.yaml`,
    swaggerOptions: { ...SWAGGER_UI_OPTIONS, plugins: TAG_FILTER_PLUGINS },
    customJsStr: TAG_FILTER_SCRIPT,
  });
  return built;
}
