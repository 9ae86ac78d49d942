import { BaseRecord, Field } from '@app/common';
import { Entity } from 'typeorm';
import { Name, Remark } from '../../fields/text-fields';
import { Count, State } from '../fields/message-fields';
import { SMS_PACKAGE_STATUS_DEFAULT, SMS_PACKAGE_STATUSES } from '../fields/message-values';

/** A purchased quota of SMS. */
@Entity('message_sms_package')
export class SmsPackage extends BaseRecord {
  @Field.id()
  smsPackageId: string;

  @Name({ required: true, example: '10,000 SMS 2026' })
  name: string;

  @Field.int({ required: true, min: 0, example: 10000, description: 'SMS the package holds' })
  totalCount: number;

  @Count({ example: 1250, description: 'SMS used so far' })
  usedCount: number;

  @Field.time({ example: 1798761599999, description: 'When the package expires; null: never' })
  expireTime: number | null;

  @State(SMS_PACKAGE_STATUSES, SMS_PACKAGE_STATUS_DEFAULT, { description: 'Whether it can be used' })
  status: string;

  @Remark()
  remark: string | null;
}
