import { shippedTranslation } from '../i18n/catalogues';
import { Message, renderAll } from '../i18n/message';
import { LANGUAGE_TAG_MAX, LANGUAGE_TAG_PATTERN } from '../values/language-tag';

/** Lower-case language tag -> English template -> its translation. */
export type TranslationsByLanguage = ReadonlyMap<string, ReadonlyMap<string, string>>;

/**
 * The deployment's own translations of error texts (an app's stored texts), which win over
 * the catalogues shipped with the service.
 */
export abstract class ErrorTextOverrides {
  /** The entries of those of the header's languages that have any, keyed by lower-case tag. */
  abstract textsFor(acceptLanguage: string): Promise<TranslationsByLanguage>;
}

/**
 * The envelope's `localizedError`: each clause in the best of the caller's languages that has a text
 * for it (an override, else a shipped catalogue; English is shipped too, so `en` ends the search),
 * else in English.
 */
export function localize(parts: readonly Message[], acceptLanguage: string | undefined, overrides: TranslationsByLanguage): string {
  const languages = preferredLanguages(acceptLanguage).map((tag) => tag.toLowerCase());
  return renderAll(parts, (template) => {
    for (const language of languages) {
      const text = overrides.get(language)?.get(template) ?? shippedTranslation(language, template);
      if (text !== undefined) return text;
    }
    return undefined;
  });
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
