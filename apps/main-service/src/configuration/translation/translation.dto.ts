import { Bool, ClientId, Text } from '@app/common';

export const LANGUAGE_PATTERN = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;
/** i18next namespaces may be paths or scoped names (`admin/users`, `@org/pkg`); no segment starts with a dot (no `..`). */
export const NAMESPACE_PATTERN = /^[A-Za-z0-9_@-][A-Za-z0-9_.@-]*(\/[A-Za-z0-9_@-][A-Za-z0-9_.@-]*)*$/;
export const LANGUAGE_MAX = 35;
export const NAMESPACE_MAX = 64;
export const KEY_MAX = 255;
export const VALUE_MAX = 10000;

export class TranslationSave {
  @ClientId()
  translationId?: string;

  @Text({ max: LANGUAGE_MAX, required: true, key: true, pattern: LANGUAGE_PATTERN, patternMessage: '$property must be a BCP 47 language tag such as en-US', example: 'en-US' })
  language: string;

  @Text({ max: NAMESPACE_MAX, required: true, key: true, pattern: NAMESPACE_PATTERN, patternMessage: '$property must be /-separated segments of letters, digits, _ . @ - not starting with a dot', example: 'common' })
  namespace: string;

  @Text({ max: KEY_MAX, required: true, key: true, example: 'button.save' })
  key: string;

  @Text({ max: VALUE_MAX, example: 'Save' })
  value?: string | null;

  @Bool({ example: false, description: 'Defaults to false; set false when completing a draft' })
  draft?: boolean;
}
