import { ServiceUnavailableException } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { MIGRATE_HINT, SchemaState } from './schema-state';

/**
 * What answers without the service's tables, by the first path segment below the prefix: the probes, the
 * metrics and the OpenAPI document with Swagger UI (openapi/setup.ts). Lower case: Express matches routes
 * case-insensitively.
 */
const ANSWERED_WITHOUT_SCHEMA = new Set(['health', 'metrics', 'v3', 'swagger-ui']);

/**
 * Refuses every request under the prefix (but the paths above) with the envelope's 503 while the database
 * lacks migrations, instead of the 500 each query would give. Registered before the routes; once the
 * schema is migrated it only reads a flag. The refusal goes to the exception filter, which writes the envelope.
 */
export function refuseUntilMigrated(schema: SchemaState, prefix: string) {
  const below = prefix.length + 2; // `/${prefix}/`
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (schema.isMigrated || ANSWERED_WITHOUT_SCHEMA.has(req.path.slice(below).split('/', 1)[0].toLowerCase())) return next();
    void schema.pending().then((count) =>
      // null (the database cannot be read): the request goes on, to the 503 of an unavailable database
      count
        ? next(new ServiceUnavailableException(`Database schema not migrated (${count} migration(s) pending): ${MIGRATE_HINT}`))
        : next(),
    );
  };
}
