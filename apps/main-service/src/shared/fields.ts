import { Int, Text } from '@app/common';
import { CODE_PATTERN, CODE_PATTERN_MESSAGE, MESSAGE_MAX, NAME_MAX, REMARK_MAX, USERNAME_MAX } from './values';

/** Write-DTO fields shared by main-service's groups (validation and OpenAPI from one declaration). */
export interface FieldOptions {
  required?: boolean;
  example?: unknown;
  description?: string;
}

/** A code or number (device numbers, template codes): no spaces or slashes. */
export const Code = (max: number, o: FieldOptions) => Text({ max, key: true, pattern: CODE_PATTERN, patternMessage: CODE_PATTERN_MESSAGE, ...o });

export const Name = (o: FieldOptions = {}) => Text({ max: NAME_MAX, example: 'Default', ...o });

export const Username = (o: FieldOptions = {}) => Text({ max: USERNAME_MAX, key: true, example: 'alice', ...o });

/** A point in time as epoch milliseconds (never negative). */
export const EpochMillis = (o: FieldOptions) => Int({ min: 0, max: Number.MAX_SAFE_INTEGER, ...o, description: `${o.description ?? 'Time'} (epoch milliseconds)` });

export const Remark = () => Text({ max: REMARK_MAX, example: 'Checked by the night shift' });

export const ErrorText = (o: FieldOptions = {}) => Text({ max: MESSAGE_MAX, ...o });
