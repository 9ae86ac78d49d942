/**
 * Language tags (BCP 47), one rule wherever a language is named (stored texts, a request's
 * language, templates): a primary language subtag of 2 or 3 letters, then subtags of 1 to 8 letters or digits
 * (script, region, variants, extensions, private use), e.g. `en`, `zh-CN`, `zh-Hans-CN`. Not `zh_CN`,
 * not a word such as `english`.
 */
export const LANGUAGE_TAG_PATTERN = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;
/** RFC 5646's recommended room for a tag; tags in practice stay far below it. */
export const LANGUAGE_TAG_MAX = 35;
export const LANGUAGE_TAG_MESSAGE = '$property must be a BCP 47 language tag, e.g. en or zh-CN';
