import { Code, EpochMillis, type FieldOptions } from '../../shared/fields';
import { DEVICE_NO_MAX } from './snapshot-values';

export { EpochMillis, ErrorText, Remark, Username } from '../../shared/fields';

export const DeviceNo = (o: FieldOptions) => Code(DEVICE_NO_MAX, o);

/** The moment the snapshot was taken: required on save. */
export abstract class SnapTimeFields {
  @EpochMillis({ required: true, example: 1767229200000, description: 'When the snapshot was taken' })
  snapTime: number;
}
