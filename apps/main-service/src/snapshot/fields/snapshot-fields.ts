import { BaseRecord, URL_SAFE_KEY_TEXT, Field } from '@app/common';
import { TextField } from '../../fields/text-fields';

/** Device, box, scanner and card numbers: URL-safe keys, the rule device-service registers numbers with. */
export const DeviceNo = (o: TextField) => Field.text({ ...URL_SAFE_KEY_TEXT, ...o });

/** Every snapshot record has the moment it was taken (required on save). */
export abstract class SnapRecord extends BaseRecord {
  @Field.time({ required: true, past: true, example: 1767229200000, description: 'When the snapshot was taken' })
  snapTime: number;
}
