import { de } from './de';
import { zhCN } from './zh-CN';

import type { Catalogue } from './catalogue';

export type { Catalogue } from './catalogue';

/** An app's own texts (its errors, its records' titles) in the shipped languages. */
export interface ShippedTexts {
  de?: Catalogue;
  'zh-CN'?: Catalogue;
}

/**
 * The languages the service ships, by lower-case tag. A bare `zh` (or a region such as `zh-TW`, through
 * its primary subtag) gets the Simplified Chinese texts, the closest the service has.
 */
const GERMAN = new Map(Object.entries(de));
const CHINESE = new Map(Object.entries(zhCN));
const SHIPPED = new Map<string, ReadonlyMap<string, string>>([
  ['de', GERMAN],
  ['zh-cn', CHINESE],
  ['zh-hans', CHINESE],
  ['zh', CHINESE],
]);

/** Adds an app's texts to the shipped ones (the service's manifest hands them over at start). */
export function addShippedTexts(texts: ShippedTexts): void {
  for (const [template, text] of Object.entries(texts.de ?? {})) GERMAN.set(template, text);
  for (const [template, text] of Object.entries(texts['zh-CN'] ?? {})) CHINESE.set(template, text);
}

/** The shipped text of `template` in `language` (lower case); English is the template itself. */
export function shippedTranslation(language: string, template: string): string | undefined {
  if (language === 'en') return template;
  return SHIPPED.get(language)?.get(template);
}

/** The languages with a shipped catalogue, as the documentation names them. */
export const SHIPPED_LANGUAGES = ['en', 'zh-CN', 'de'] as const;
