/**
 * Reading the services' own OpenAPI documents, for suites generated from them (null sweep, body edges):
 * the write operations with a JSON body and the properties of their schemas.
 */
import type { Json } from './json';

export interface ObjectSchema {
  properties: Record<string, Json>;
  required: string[];
}

export interface JsonOperation {
  method: 'post' | 'put';
  path: string;
  /** Last path segment, e.g. save, updateById, importList. */
  op: string;
  /** Segment before the operation, e.g. data-dictionary. */
  resource: string;
  /** The JSON body is an array of rows (saveBatch, importList). */
  arrayBody: boolean;
  /** The object schema of the body, or of one row of an array body. */
  schema: ObjectSchema;
  /** The example of the whole body (or row), if the document gives one. */
  example?: Record<string, unknown>;
  /** Required query parameters. */
  query: string[];
}

function resolve(doc: Json, schema: Json): Json {
  return schema.$ref ? resolve(doc, doc.components.schemas[schema.$ref.split('/').pop()]) : schema;
}

/** The object schema's properties and required names (allOf merged). */
export function objectSchema(doc: Json, schema: Json): ObjectSchema {
  const s = resolve(doc, schema);
  const parts = [s, ...(s.allOf ?? []).map((p: Json) => objectSchema(doc, p))];
  return {
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
    required: [...new Set(parts.flatMap((p) => p.required ?? []))],
  };
}

/** Every POST/PUT operation of the document whose request body is JSON. */
export function jsonOperations(doc: Json): JsonOperation[] {
  const found: JsonOperation[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const method of ['post', 'put'] as const) {
      const schema = item[method]?.requestBody?.content?.['application/json']?.schema;
      if (!schema) continue;
      const resolved = resolve(doc, schema);
      const arrayBody = resolved.type === 'array';
      const segments = path.split('/');
      found.push({
        method,
        path,
        op: segments[segments.length - 1],
        resource: segments[segments.length - 2],
        arrayBody,
        schema: objectSchema(doc, arrayBody ? resolved.items : resolved),
        example: resolve(doc, arrayBody ? resolved.items : resolved).example,
        query: (item[method].parameters ?? []).filter((p: Json) => p.in === 'query' && p.required).map((p: Json) => p.name),
      });
    }
  }
  return found;
}

/**
 * The body Swagger UI's sample generator builds from a schema (independent of the service's own code): each
 * property's example, else its default, else the first enum value, else a value of its type; read-only
 * properties left out.
 */
export function swaggerUiSample(doc: Json, schema: Json | undefined, depth = 0): unknown {
  const s = schema ? resolve(doc, schema) : {};
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if (depth > 8) return null;
  const variants = s.anyOf ?? s.oneOf;
  if (variants?.length) return swaggerUiSample(doc, variants[0], depth + 1);
  if (s.allOf || s.properties || s.type === 'object') {
    const body: Json = {};
    for (const part of s.allOf ?? []) Object.assign(body, swaggerUiSample(doc, part, depth + 1));
    for (const [name, property] of Object.entries((s.properties ?? {}) as Json))
      if (!resolve(doc, property).readOnly) body[name] = swaggerUiSample(doc, property, depth + 1);
    return body;
  }
  if (s.type === 'array') return [swaggerUiSample(doc, s.items, depth + 1)];
  return ({ string: 'string', integer: 0, number: 0, boolean: true } as Json)[s.type] ?? null;
}

/**
 * The envelope schema an operation answers with HTTP 200 (a named component), its properties' references
 * resolved one level: `data` is the record schema (or its nullable copy), `extraData` the extra's schema.
 */
export function answerSchema(doc: Json, op: Json | undefined): Json {
  const schema = op?.responses?.['200']?.content?.['application/json']?.schema;
  if (!schema) return {};
  const envelope = resolve(doc, schema);
  const properties = Object.fromEntries(
    Object.entries((envelope.properties ?? {}) as Json).map(([name, p]) => [name, resolve(doc, p as Json)]),
  );
  return { ...envelope, properties };
}
