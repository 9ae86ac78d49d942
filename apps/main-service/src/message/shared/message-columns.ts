import { BaseRecord } from '@app/common';
import { BoolColumn, IntColumn, NameColumn, RemarkColumn, TextColumn } from '../../shared/columns';
import { CODE_MAX, RECORD_ID_MAX } from './message-values';

export const RecordIdColumn = (o: { nullable?: boolean; description?: string }) => TextColumn(RECORD_ID_MAX, { example: 'V1StGXR8Z5jdHi6BmyTbc', ...o });
export const CodeColumn = (o: { nullable?: boolean; example: unknown; description?: string }) => TextColumn(CODE_MAX, o);
export const EnabledColumn = () => BoolColumn({ default: true, example: true, description: 'Whether it may be used' });
export const CountColumn = (o: { example: unknown; description?: string }) => IntColumn({ default: 0, ...o });

/** businessType, businessId. */
export abstract class BusinessRecord extends BaseRecord {
  @CodeColumn({ nullable: true, example: 'ORDER', description: 'Kind of business record the message is about' })
  businessType: string | null;

  @CodeColumn({ nullable: true, example: 'SO-2026-0001', description: 'Identifier of that business record' })
  businessId: string | null;
}

export abstract class ConfigRecord extends BaseRecord {
  @NameColumn({ example: 'Default sender' })
  name: string;

  @EnabledColumn()
  enabled: boolean;

  @RemarkColumn()
  remark: string | null;
}

export abstract class TemplateRecord extends BaseRecord {
  @CodeColumn({ example: 'password-reset' })
  code: string;

  @NameColumn({ example: 'Password reset' })
  name: string;

  @EnabledColumn()
  enabled: boolean;

  @RemarkColumn()
  remark: string | null;
}

export abstract class LinkRecord extends BaseRecord {
  @IntColumn({ default: 0, example: 1, description: 'Order of the configurations of one template (ascending)' })
  sort: number;
}

