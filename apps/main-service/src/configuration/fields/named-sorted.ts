import { BaseRecord, Field } from '@app/common';

/** `name` and `sort`, which every dictionary and value-set record has. */
export abstract class NamedSortedRecord extends BaseRecord {
  @Field.text({ max: 255, example: 'Display name' })
  name: string | null;

  @Field.int({ default: 0, example: 1, description: 'Ordering value (ascending)' })
  sort: number;
}
