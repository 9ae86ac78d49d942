import { AppException, BodyStatus, LANGUAGE_TAG_MAX, LANGUAGE_TAG_PATTERN, message, requiredText } from '@app/common';
import { KEY_MAX, NAMESPACE_MAX, NAMESPACE_PATTERN, VALUE_MAX } from './translation.entity';

/** Bounds of one anonymous missing-key report (docs/decisions.md). */
export const SAVE_MISSING_MAX_KEYS = 100;
/** Anonymous reports are small: larger bodies are refused while being read (HTTP 413). */
export const SAVE_MISSING_BODY_LIMIT = '64kb';
const CONTROL = /[\u0000-\u001f\u007f]/;

export interface MissingReport {
  language: string;
  namespace: string;
  entries: { key: string; value: string }[];
}

function queryText(raw: unknown, name: string, pattern: RegExp, max: number): string {
  const value = requiredText(raw, name);
  if (value.length > max || !pattern.test(value) || value === 'cimode')
    throw AppException.validation(message("Parameter '{{name}}' is not acceptable", { name }));
  return value;
}

/** Checks what i18next-http-backend's addPath sends: ?lng=&ns= and a flat {key: fallbackValue} map. */
export function parseMissingReport(query: Record<string, unknown>, body: unknown): MissingReport {
  const language = queryText(query.lng, 'lng', LANGUAGE_TAG_PATTERN, LANGUAGE_TAG_MAX);
  const namespace = queryText(query.ns, 'ns', NAMESPACE_PATTERN, NAMESPACE_MAX);
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new AppException(BodyStatus.TYPE_MISMATCH, 'Body must be an object of key to fallback value');
  const pairs = Object.entries(body);
  if (!pairs.length) throw AppException.validation('Body must contain at least one key');
  if (pairs.length > SAVE_MISSING_MAX_KEYS)
    throw AppException.validation(message('At most {{max}} keys per report', { max: SAVE_MISSING_MAX_KEYS }));
  const entries = pairs.map(([key, value]) => {
    if (!key.trim() || key !== key.trim() || key.length > KEY_MAX || CONTROL.test(key))
      throw AppException.validation(
        message("Key '{{key}}' must be 1 to {{max}} characters without surrounding whitespace or control characters", {
          key: key.slice(0, 40),
          max: KEY_MAX,
        }),
      );
    if (typeof value !== 'string')
      throw new AppException(BodyStatus.TYPE_MISMATCH, message("Value of '{{key}}' must be a string", { key }));
    if (value.length > VALUE_MAX)
      throw AppException.validation(message("Value of '{{key}}' must be at most {{max}} characters", { key, max: VALUE_MAX }));
    return { key, value };
  });
  return { language, namespace, entries };
}
