import { ClientId, Text, TextList } from '@app/common';
import { EpochMillis, ErrorText } from '../../shared/fields';
import { BusinessFields, Count, RecordId, State } from '../shared/message-fields';
import { CONTENT_MAX, EMAIL_MAX, EMAIL_RECIPIENTS_MAX, SEND_STATUS_DEFAULT, SEND_STATUSES, SUBJECT_MAX } from '../shared/message-values';

const addresses = (required: boolean, example: string[], description: string) =>
  TextList({ max: EMAIL_MAX, format: 'email', maxItems: EMAIL_RECIPIENTS_MAX, required, example, description: `${description} (JSON array of up to ${EMAIL_RECIPIENTS_MAX} addresses)` });

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class EmailSave extends BusinessFields {
  @ClientId()
  emailId?: string;

  @RecordId({ description: 'The e-mail configuration it is sent with' })
  emailConfigId?: string | null;

  @RecordId({ description: 'The e-mail template it was made from' })
  emailTemplateId?: string | null;

  @Text({ max: EMAIL_MAX, required: true, key: true, format: 'email', example: 'noreply@example.com', description: 'Sender address' })
  fromAddress: string;

  @addresses(true, ['alice@example.com'], 'Recipients')
  toAddresses: string[];

  @addresses(false, ['bob@example.com'], 'Copy recipients')
  ccAddresses?: string[] | null;

  @addresses(false, ['audit@example.com'], 'Blind copy recipients')
  bccAddresses?: string[] | null;

  @Text({ max: SUBJECT_MAX, required: true, example: 'Reset your password', description: 'Subject line' })
  subject: string;

  @Text({ max: CONTENT_MAX, required: true, example: '<p>Hello Alice, ...</p>', description: 'Body' })
  content: string;

  @State(SEND_STATUSES, SEND_STATUS_DEFAULT, { description: `Delivery state (${SEND_STATUS_DEFAULT} when omitted on create)` })
  status?: string;

  @EpochMillis({ example: 1767229200000, description: 'When it was sent; null (the default) until then' })
  sendTime?: number | null;

  @ErrorText({ example: '550 mailbox unavailable', description: 'Why the last attempt failed' })
  errorMessage?: string | null;

  @Count({ example: 0, description: 'Attempts after the first (0 when omitted)' })
  retryCount?: number;
}
