import { Type } from '@nestjs/common';
import {
  BODY_STATUSES,
  ERROR_ENVELOPE,
  errorEnvelopeSchema,
  Failure,
  FailureInput,
  failureExample,
  failureTitle,
  FAILURES_EXTENSION,
  mergeFailures,
} from './failures';
import { DATA_EXAMPLE_EXTENSION } from './api-envelope';
import { bodyFailureExamples, INPUT_EXTENSION } from './failure-inputs';
import { propertiesOf, resolveRef, sampleOf } from './sample';
import { describeTags, nameOperations } from './names';
import { METHODS, operations } from './paths';
import { addSharedSchemas, foldLoneNullableCopies } from './shared-schemas';
import { untypeAnyValues } from './any-value';

/** The app's request body classes by schema name (bodyClassesOf): failure examples are derived from their rules. */
type BodyClasses = Map<string, Type<object>>;

// an OpenAPI document is walked as plain JSON
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/**
 * Order of operations inside a tag: the library's standard set, then its optional calls; any other call (a
 * resource's own) follows them in the order its controller declares it.
 */
const OPERATION_ORDER = [
  'save',
  'getById',
  'page',
  'list',
  'count',
  'updateById',
  'removeById',
  'removeByIds',
  'importList',
  'importStatus',
  'listCache',
];

/** Answered by the HTTP server itself, on any route (request line and headers together are bounded). */
const HEADERS_TOO_LARGE = 'HeadersTooLarge';

/** The failures an operation's shape implies, beside the ones its route declared. */
function derivedFailures(document: Json, op: Json, classes: BodyClasses): Failure[] {
  const body = op.requestBody?.content?.['application/json']?.schema;
  const failures: Failure[] = body ? bodyFailureExamples(document, body, classes) : [];
  const required = (op.parameters ?? []).filter((p: Json) => p.in === 'query' && p.required).map((p: Json) => `\`${p.name}\``);
  if (op.requestBody) {
    failures.push(
      { status: 400, when: 'A field breaks its rule; `error` names each failing field and rule.' },
      { status: 413, when: 'The body is larger than this operation accepts.' },
    );
  }
  if (body) {
    failures.push(
      { status: 1003, when: 'A value has the wrong JSON type (e.g. a string for a number, an array for an object).' },
      { status: 1004, when: 'The body is not valid JSON.', error: 'Malformed JSON request body', input: { raw: '{"' } },
    );
    if ('revision' in propertiesOf(document, body))
      failures.push({ status: 409, when: 'The body carries a `revision` that is not the stored one; nothing changes.' });
  }
  if (required.length) {
    const first = required[0].slice(1, -1);
    const single = (op.parameters as Json[]).find((p) => p.in === 'query' && p.required && p.schema?.type !== 'array');
    failures.push({
      status: 1002,
      when: `Required query parameter ${required.join(', ')} missing or empty.`,
      error: `Required parameter '${first}' is missing`,
      input: { omitQuery: first },
    });
    if (single)
      failures.push({
        status: 1003,
        when: 'A single-valued query parameter given more than once.',
        error: `Parameter '${single.name}' must be a single string`,
        input: { repeatQuery: single.name },
      });
  }
  // an operation that takes input or a caller's token reads or writes the database
  if (op.requestBody || op.parameters?.length || op.security?.length)
    failures.push({ status: 503, when: 'The database is unreachable; nothing was written. Retry later.' });
  return failures;
}

const envelopeContent = (example: unknown) => ({
  'application/json': { schema: { $ref: `#/components/schemas/${ERROR_ENVELOPE}` }, example },
});

/** HTTP failures as their own responses; body-status failures as named examples of the 200 envelope. */
function documentFailures(document: Json, path: string, op: Json, classes: BodyClasses): void {
  const failures = mergeFailures([...((op[FAILURES_EXTENSION] as Failure[] | undefined) ?? []), ...derivedFailures(document, op, classes)]);
  delete op[FAILURES_EXTENSION];
  const ok = op.responses?.['200'];
  const inBody = failures.filter((f) => BODY_STATUSES.has(f.status));
  // a file answer (an export) whose refusals come as the envelope with HTTP 200: the envelope is its JSON media type
  const fileAnswer = ok?.content !== undefined && !ok.content['application/json'];
  if (fileAnswer && inBody.length) ok.content['application/json'] = { schema: { $ref: `#/components/schemas/${ERROR_ENVELOPE}` } };
  const media = ok?.content?.['application/json'];
  if (media && inBody.length) {
    const examples: Json = {};
    if (!fileAnswer) {
      const success = sampleOf(document, media.schema) as Json;
      if (DATA_EXAMPLE_EXTENSION in op) success.data = op[DATA_EXAMPLE_EXTENSION];
      examples.success = { summary: 'Success', value: success };
    }
    for (const f of inBody)
      examples[`status${f.status}`] = {
        summary: `${failureTitle(f.status)} (status ${f.status})`,
        description: f.input ? `${f.when}\n\nSent: ${inputInWords(f.input)}.` : f.when,
        value: failureExample(f, path),
        ...(f.input ? { [INPUT_EXTENSION]: f.input } : {}),
      };
    media.examples = examples;
    const lines = inBody.map((f) => `- ${f.status}: ${f.when}`).join('\n');
    ok.description = `${ok.description}\n\nFailures answered with HTTP 200, told apart by the body \`status\` (see the examples):\n${lines}`;
  }
  for (const f of failures.filter((x) => !BODY_STATUSES.has(x.status))) {
    op.responses[String(f.status)] ??= {
      description: `${failureTitle(f.status)}: ${f.when}`,
      content: envelopeContent(failureExample(f, path)),
    };
  }
  // failures a route declared itself (e.g. readiness' 503) answer with the envelope too
  for (const [status, response] of Object.entries(op.responses as Json)) {
    if (Number(status) >= 400 && !response.$ref && !response.content)
      response.content = envelopeContent(failureExample({ status: Number(status), when: '' }, path));
  }
  op.responses['431'] ??= { $ref: `#/components/responses/${HEADERS_TOO_LARGE}` };
  delete op[DATA_EXAMPLE_EXTENSION];
}

/** A failure example's input, as the example's description tells it. */
function inputInWords(input: FailureInput): string {
  if (input.omitQuery) return `no query parameter \`${input.omitQuery}\``;
  if (input.repeatQuery) return `query parameter \`${input.repeatQuery}\` twice`;
  if (input.raw !== undefined) return `the body \`${input.raw}\``;
  if (input.set) {
    const changes = Object.entries(input.set).map(([name, value]) => `\`${name}\` ${JSON.stringify(value)}`);
    return `the request example with ${changes.join(', ')}`;
  }
  return `the body \`${JSON.stringify(input.body)}\``;
}

/** A request body with named examples also offers the schema's sample (every field at its example), last. */
function addSampleExample(document: Json, op: Json): void {
  const media = op.requestBody?.content?.['application/json'];
  if (media?.examples && !media.examples.everyField)
    media.examples.everyField = { summary: 'Every field set to its example', value: sampleOf(document, media.schema) };
}

/** `nullable` needs a `type` beside it in OpenAPI 3.0: take it from the referenced schema (objects by default). */
function typeNullables(document: Json, node: unknown): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach((item) => typeNullables(document, item));
  const schema = node as Json;
  if (schema.nullable === true && schema.type === undefined) {
    const target = schema.$ref ? schema : schema.allOf?.length === 1 ? schema.allOf[0] : undefined;
    schema.type = resolveRef(document, target).type ?? 'object';
    if (schema.$ref) {
      schema.allOf = [{ $ref: schema.$ref }];
      delete schema.$ref;
    }
  }
  for (const value of Object.values(schema)) typeNullables(document, value);
}

/** Swagger UI lists a tag's operations in the order of `paths`: tags as they first appear, the standard set in its order. */
function orderPaths(document: Json): void {
  const entries = Object.entries((document.paths ?? {}) as Json);
  const tagOf = (item: Json) => METHODS.map((m) => item[m]?.tags?.[0]).find(Boolean) ?? '';
  const tags = [...new Set(entries.map(([, item]) => tagOf(item)))];
  const rank = (path: string) => {
    const index = OPERATION_ORDER.indexOf(path.split('/').pop()!);
    return index < 0 ? OPERATION_ORDER.length : index;
  };
  const keyed = entries.map(([path, item], position) => ({ path, item, position, tag: tags.indexOf(tagOf(item)), rank: rank(path) }));
  keyed.sort((a, b) => a.tag - b.tag || a.rank - b.rank || a.position - b.position);
  document.paths = Object.fromEntries(keyed.map(({ path, item }) => [path, item]));
}

/** A path to show in the failure envelope's example: the document's first `save`, else its first path. */
function examplePath(document: Json): string {
  const paths = Object.keys(document.paths ?? {});
  return paths.find((path) => path.endsWith('/save')) ?? paths[0] ?? '/';
}

/**
 * Completes the generated document for Swagger UI users and code generators: failure answers of every
 * operation, an explicit empty `security` on anonymous operations, typed nullables, the shared envelope
 * schemas, one order of operations per tag, readable operation ids and described tags.
 */
export function finaliseDocument(document: Json, classes: BodyClasses = new Map()): Json {
  document.components ??= {};
  document.components.schemas ??= {};
  document.components.schemas[ERROR_ENVELOPE] = errorEnvelopeSchema(examplePath(document));
  document.components.responses = {
    ...(document.components.responses ?? {}),
    [HEADERS_TOO_LARGE]: {
      description: 'Request line and headers together are larger than the server accepts (64 KiB).',
      content: envelopeContent(failureExample({ status: 431, when: '' }, '/')),
    },
  };
  addSharedSchemas(document);
  for (const { path, op } of operations(document)) {
    if (!op.security?.length) op.security = [];
    documentFailures(document, path, op, classes);
    addSampleExample(document, op);
  }
  untypeAnyValues(document.components.schemas);
  typeNullables(document, document.paths);
  typeNullables(document, document.components.schemas);
  foldLoneNullableCopies(document);
  orderPaths(document);
  nameOperations(document);
  describeTags(document);
  return document;
}
