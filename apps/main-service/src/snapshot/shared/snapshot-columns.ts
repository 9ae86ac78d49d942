import { DEVICE_NO_MAX } from './snapshot-values';
import { TextColumn, TimeColumn, type ColumnOptions } from '../../shared/columns';
import { BaseRecord } from '@app/common';

export { ChoiceColumn, DoubleColumn, IntColumn, MessageColumn, RemarkColumn, TextColumn, TimeColumn, UsernameColumn } from '../../shared/columns';

export const DeviceNoColumn = (o: ColumnOptions) => TextColumn(DEVICE_NO_MAX, o);

/** Every snapshot record has the moment it was taken. */
export abstract class SnapRecord extends BaseRecord {
  @TimeColumn({ example: 1767229200000, description: 'When the snapshot was taken' })
  snapTime: number;
}
