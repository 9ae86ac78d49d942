import { ClientId, Text, TextList } from '@app/common';
import { EpochMillis, ErrorText } from '../../shared/fields';
import { MESSAGE_MAX } from '../../shared/values';
import { BusinessFields, Count, RecordId, State } from '../shared/message-fields';
import { CODE_MAX, SEND_STATUS_DEFAULT, SEND_STATUSES, SMS_CONTENT_MAX, SMS_RECIPIENTS_MAX } from '../shared/message-values';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class SmsSave extends BusinessFields {
  @ClientId()
  smsId?: string;

  @RecordId({ description: 'The SMS configuration it is sent with' })
  smsConfigId?: string | null;

  @RecordId({ description: 'The SMS template it was made from' })
  smsTemplateId?: string | null;

  @TextList({ max: 16, format: 'e164', maxItems: SMS_RECIPIENTS_MAX, required: true, example: ['+8613800138000'], description: `Recipients (JSON array of up to ${SMS_RECIPIENTS_MAX} E.164 numbers)` })
  phoneNumbers: string[];

  @Text({ max: SMS_CONTENT_MAX, required: true, example: 'Your code is 123456', description: 'Text' })
  content: string;

  @Text({ max: MESSAGE_MAX, format: 'json', example: '{"code":"123456"}', description: 'Template parameters: JSON object text' })
  params?: string | null;

  @State(SEND_STATUSES, SEND_STATUS_DEFAULT, { description: `Delivery state (${SEND_STATUS_DEFAULT} when omitted on create)` })
  status?: string;

  @EpochMillis({ example: 1767229200000, description: 'When it was sent; null (the default) until then' })
  sendTime?: number | null;

  @ErrorText({ example: 'isv.MOBILE_NUMBER_ILLEGAL', description: 'Why the last attempt failed' })
  errorMessage?: string | null;

  @Text({ max: CODE_MAX * 2, key: true, example: '900619746936498440^0', description: "The provider's id of the sent message" })
  providerMessageId?: string | null;

  @Count({ example: 0, description: 'Attempts after the first (0 when omitted)' })
  retryCount?: number;
}
