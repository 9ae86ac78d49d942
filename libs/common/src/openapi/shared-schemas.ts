import { envelopeSchema, OR_NULL } from './api-envelope';

// an OpenAPI document is walked as plain JSON
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const refName = (ref: string) => ref.split('/').pop()!;

function* refsIn(node: unknown): Generator<string> {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) for (const item of node) yield* refsIn(item);
  else
    for (const [key, value] of Object.entries(node as Json)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) yield refName(value);
      else yield* refsIn(value);
    }
}

/**
 * Adds the named envelopes the operations reference, their `extraData` schemas, and the nullable copies
 * of records (`<Record>OrNull`) their `data` references: a component of its own, so that a strict
 * validator accepts `data: null` and a generator still sees the record's fields.
 */
export function addSharedSchemas(document: Json): void {
  const schemas = document.components.schemas as Json;
  const pending = [...refsIn(document.paths)];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (schemas[name]) continue;
    const envelope = envelopeSchema(name);
    const record = name.endsWith(OR_NULL) ? schemas[name.slice(0, -OR_NULL.length)] : undefined;
    if (envelope) schemas[name] = structuredClone(envelope);
    else if (record)
      schemas[name] = {
        ...structuredClone(record),
        nullable: true,
        description: `${record.description ? `${record.description} ` : ''}Null when there is none, and on a failure.`,
      };
    else continue;
    pending.push(...refsIn(schemas[name]));
  }
}

/**
 * A record that only ever appears as "the record or null" keeps its own name: its nullable copy replaces it
 * (a generated client then has one class for it, under the record's name).
 */
export function foldLoneNullableCopies(document: Json): void {
  const schemas = document.components.schemas as Json;
  const copies = Object.keys(schemas).filter((name) => name.endsWith(OR_NULL) && schemas[name.slice(0, -OR_NULL.length)]);
  const used = new Set([
    ...refsIn(document.paths),
    ...Object.entries(schemas).flatMap(([name, s]) => (copies.includes(name) ? [] : [...refsIn(s)])),
  ]);
  const lone = copies.filter((copy) => !used.has(copy.slice(0, -OR_NULL.length)));
  for (const copy of lone) {
    schemas[copy.slice(0, -OR_NULL.length)] = schemas[copy];
    delete schemas[copy];
  }
  const moved = new Map(lone.map((copy) => [`#/components/schemas/${copy}`, `#/components/schemas/${copy.slice(0, -OR_NULL.length)}`]));
  const rewrite = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node as Json)) {
      if (key === '$ref' && moved.has(value)) (node as Json).$ref = moved.get(value);
      else rewrite(value);
    }
  };
  rewrite(document.paths);
  rewrite(schemas);
}
