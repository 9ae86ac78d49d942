import { Field, TextFieldOptions } from '@app/common';
import { CODE_PATTERN, CODE_PATTERN_MESSAGE, MESSAGE_MAX, NAME_MAX, REMARK_MAX, USERNAME_MAX } from './text-limits';

/** Field declarations the groups of main-service share (column, validation and OpenAPI in one). */
export type TextField = Omit<TextFieldOptions, 'max'>;

/** A business code (template codes, provider codes): no spaces or slashes. Device numbers are URL-safe keys (URL_SAFE_KEY_TEXT). */
export const Code = (max: number, o: TextField = {}) =>
  Field.text({ max, key: true, pattern: CODE_PATTERN, patternMessage: CODE_PATTERN_MESSAGE, ...o });

export const Name = (o: TextField = {}) => Field.text({ max: NAME_MAX, example: 'Default', ...o });

export const Username = (o: TextField = {}) => Field.text({ max: USERNAME_MAX, key: true, example: 'alice', ...o });

export const Remark = () => Field.text({ max: REMARK_MAX, example: 'Checked by the night shift' });

export const ErrorText = (o: TextField = {}) => Field.text({ max: MESSAGE_MAX, ...o });
