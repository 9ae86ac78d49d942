// an OpenAPI document is walked as plain JSON
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

export const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Every operation of the document with its path and method. */
export function* operations(document: Json): Generator<{ path: string; method: string; op: Json }> {
  for (const [path, item] of Object.entries((document.paths ?? {}) as Json)) {
    for (const method of METHODS) if (item[method]) yield { path, method, op: item[method] };
  }
}
