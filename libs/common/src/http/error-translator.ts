import { LANGUAGE_TAG_MAX, LANGUAGE_TAG_PATTERN } from '../values/language-tag';

/** Translates an error text into the caller's language (the envelope's `localizedError`). */
export abstract class ErrorTranslator {
  /** Resolves to the translation, or undefined when there is none for the language. */
  abstract translate(error: string, acceptLanguage: string | undefined): Promise<string | undefined>;
}

/** Language tags of an Accept-Language header, best first, each followed by its primary subtag. */
export function preferredLanguages(header: string | undefined): string[] {
  if (!header) return [];
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((l) => l.tag.length <= LANGUAGE_TAG_MAX && LANGUAGE_TAG_PATTERN.test(l.tag) && l.q > 0)
    .sort((a, b) => b.q - a.q);
  const tags: string[] = [];
  for (const { tag } of ranked.slice(0, 6)) {
    for (const t of [tag, tag.split('-')[0]]) if (!tags.includes(t)) tags.push(t);
  }
  return tags;
}

/**
 * The languages of an Accept-Language header that exist, best first, spelled as stored. `available` maps
 * each stored tag in lower case (tags are case-insensitive) to its stored spelling; tags that do not
 * exist are dropped here, so a caller's header can never make the service look up or cache a new key.
 */
export function availableLanguages(header: string | undefined, available: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const tag of preferredLanguages(header)) {
    const stored = available.get(tag.toLowerCase());
    if (stored !== undefined && !found.includes(stored)) found.push(stored);
  }
  return found;
}
