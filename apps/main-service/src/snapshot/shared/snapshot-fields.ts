import { Int, OneOf, Text } from '@app/common';
import { DEVICE_NO_MAX, DEVICE_NO_PATTERN, MESSAGE_MAX, REMARK_MAX, USERNAME_MAX } from './snapshot-values';

/** Write-DTO fields shared by the snapshot resources (validation and OpenAPI from one declaration). */
interface FieldOptions {
  required?: boolean;
  example?: unknown;
  description?: string;
}

export const DeviceNo = (o: FieldOptions) =>
  Text({ max: DEVICE_NO_MAX, key: true, pattern: DEVICE_NO_PATTERN, patternMessage: '$property must be letters and digits, then also . _ : or -', ...o });

export const Username = (o: FieldOptions = {}) => Text({ max: USERNAME_MAX, key: true, example: 'alice', ...o });

/** A point in time as epoch milliseconds (never negative). */
export const EpochMillis = (o: FieldOptions) => Int({ min: 0, max: Number.MAX_SAFE_INTEGER, ...o, description: `${o.description ?? 'Time'} (epoch milliseconds)` });

export const Remark = () => Text({ max: REMARK_MAX, example: 'Checked by the night shift' });

export const ErrorText = (o: FieldOptions = {}) => Text({ max: MESSAGE_MAX, ...o });

/** The moment the snapshot was taken: required on save. */
export abstract class SnapTimeFields {
  @EpochMillis({ required: true, example: 1767229200000, description: 'When the snapshot was taken' })
  snapTime: number;
}
