// an OpenAPI document is walked as plain JSON
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Schema = Record<string, any>;

/** The schema a `$ref` points to (only local component references occur in the documents). */
export function resolveRef(document: Schema, schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let hops = 0; current.$ref && hops < 32; hops++)
    current = document.components?.schemas?.[String(current.$ref).split('/').pop()!] ?? {};
  return current;
}

/**
 * A value of a schema as Swagger UI builds one: the schema's `example`, else its `default`, else the first
 * `enum` value, else a value of its type; objects property by property (allOf merged), arrays of one item.
 */
export function sampleOf(document: Schema, schema: Schema | undefined, depth = 0): unknown {
  const s = resolveRef(document, schema);
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if (depth > 8) return null;
  if (s.anyOf?.length || s.oneOf?.length) return sampleOf(document, (s.anyOf ?? s.oneOf)[0], depth + 1);
  if (s.allOf || s.properties || s.type === 'object') {
    const merged: Record<string, unknown> = {};
    for (const part of s.allOf ?? []) Object.assign(merged, sampleOf(document, part, depth + 1));
    for (const [name, property] of Object.entries((s.properties ?? {}) as Record<string, Schema>))
      merged[name] = sampleOf(document, property, depth + 1);
    return merged;
  }
  if (s.type === 'array') return [sampleOf(document, s.items, depth + 1)];
  return ({ string: 'string', integer: 0, number: 0, boolean: true } as Record<string, unknown>)[s.type] ?? null;
}

/** Every property of an object schema, following `$ref` and `allOf`. */
export function propertiesOf(document: Schema, schema: Schema | undefined): Schema {
  const s = resolveRef(document, schema);
  return Object.assign({}, ...(s.allOf ?? []).map((part: Schema) => propertiesOf(document, part)), s.properties ?? {});
}
