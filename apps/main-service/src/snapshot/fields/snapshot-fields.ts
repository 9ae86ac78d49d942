import { BaseRecord, DEVICE_NUMBER_TEXT, Field } from '@app/common';
import { TextField } from '../../fields/text-fields';

/** Device, box, scanner and card numbers: the rule device-service registers numbers with. */
export const DeviceNo = (o: TextField) => Field.text({ ...DEVICE_NUMBER_TEXT, ...o });

/** Every snapshot record has the moment it was taken (required on save). */
export abstract class SnapRecord extends BaseRecord {
  @Field.time({ required: true, example: 1767229200000, description: 'When the snapshot was taken' })
  snapTime: number;
}
