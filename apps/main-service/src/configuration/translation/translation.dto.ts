import { saveDtoOf } from '@app/common';
import { Translation } from './translation.entity';

/** The body of save (derived from the entity's fields), also a row of the workbook import. */
export const TranslationSave = saveDtoOf(Translation);
export type TranslationSave = InstanceType<typeof TranslationSave>;
