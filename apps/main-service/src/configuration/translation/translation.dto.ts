import { saveDtoOf } from '@app/common';
import { Translation } from './translation.entity';

export { KEY_MAX, LANGUAGE_MAX, LANGUAGE_PATTERN, NAMESPACE_MAX, NAMESPACE_PATTERN, VALUE_MAX } from './translation.entity';

/** The body of save (derived from the entity's fields), also a row of the workbook import. */
export const TranslationSave = saveDtoOf(Translation);
export type TranslationSave = InstanceType<typeof TranslationSave>;
