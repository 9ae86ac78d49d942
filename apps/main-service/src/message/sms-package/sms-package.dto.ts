import { ClientId, Int } from '@app/common';
import { EpochMillis, Name, Remark } from '../../shared/fields';
import { Count, State } from '../shared/message-fields';
import { SMS_PACKAGE_STATUS_DEFAULT, SMS_PACKAGE_STATUSES } from '../shared/message-values';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class SmsPackageSave {
  @ClientId()
  smsPackageId?: string;

  @Name({ required: true, example: '10,000 SMS 2026' })
  name: string;

  @Int({ required: true, min: 0, example: 10000, description: 'SMS the package holds' })
  totalCount: number;

  @Count({ example: 1250, description: 'SMS used so far (0 when omitted)' })
  usedCount?: number;

  @EpochMillis({ example: 1798761599999, description: 'When the package expires; null: never' })
  expireTime?: number | null;

  @State(SMS_PACKAGE_STATUSES, SMS_PACKAGE_STATUS_DEFAULT, { description: `Whether it can be used (${SMS_PACKAGE_STATUS_DEFAULT} when omitted on create)` })
  status?: string;

  @Remark()
  remark?: string | null;
}
