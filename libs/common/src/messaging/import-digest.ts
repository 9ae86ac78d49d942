import { createHash } from 'node:crypto';

/**
 * JSON with every object's keys in one fixed order, so that the same rows give the same text whichever
 * producer serialised them. Same value rules as JSON.stringify (toJSON, undefined dropped).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const record = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((k) => [k, record[k]]),
    );
  });
}

/**
 * SHA-256 (hex) of the canonical JSON of an import batch's items: stored on the batch when the request
 * commits it, compared by the consumer before applying a message. It is stored data, so changing how it
 * is computed needs a migration of the pending batches' digests.
 */
export function importDigest(items: readonly unknown[]): string {
  return createHash('sha256').update(canonicalJson(items)).digest('hex');
}
