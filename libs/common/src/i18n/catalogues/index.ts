import { de } from './de';
import { zhCN } from './zh-CN';

export type { Catalogue } from './catalogue';

/**
 * The languages the service ships, by lower-case tag. A bare `zh` (or a region such as `zh-TW`, through
 * its primary subtag) gets the Simplified Chinese texts, the closest the service has.
 */
const SHIPPED = new Map<string, ReadonlyMap<string, string>>([
  ['de', new Map(Object.entries(de))],
  ['zh-cn', new Map(Object.entries(zhCN))],
  ['zh-hans', new Map(Object.entries(zhCN))],
  ['zh', new Map(Object.entries(zhCN))],
]);

/** The shipped text of `template` in `language` (lower case); English is the template itself. */
export function shippedTranslation(language: string, template: string): string | undefined {
  if (language === 'en') return template;
  return SHIPPED.get(language)?.get(template);
}

/** The languages with a shipped catalogue, as the documentation names them. */
export const SHIPPED_LANGUAGES = ['en', 'zh-CN', 'de'] as const;
