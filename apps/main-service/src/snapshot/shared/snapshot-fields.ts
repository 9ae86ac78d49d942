import { BaseRecord, Field } from '@app/common';
import { Code, TextField } from '../../shared/fields';
import { DEVICE_NO_MAX } from './snapshot-values';

/** Device, box, scanner and card numbers. */
export const DeviceNo = (o: TextField) => Code(DEVICE_NO_MAX, o);

/** Every snapshot record has the moment it was taken (required on save). */
export abstract class SnapRecord extends BaseRecord {
  @Field.time({ required: true, example: 1767229200000, description: 'When the snapshot was taken' })
  snapTime: number;
}
