import { BaseRecord, CLIENT_ID_PATTERN, Field } from '@app/common';
import { Code, ErrorText, Name, Remark, TextField } from '../../fields/text-fields';
import { CODE_MAX, RECORD_ID_MAX } from './message-values';

/** The identifier of another message record (a template, configuration, notification). */
export const RecordId = (o: TextField) =>
  Field.text({
    max: RECORD_ID_MAX,
    key: true,
    pattern: CLIENT_ID_PATTERN,
    patternMessage: '$property must be 1 to 32 characters of [0-9A-Za-z]',
    example: 'V1StGXR8Z5jdHi6BmyTbc',
    ...o,
  });

/** `errorMessage` of an e-mail or SMS (delivery-failure.ts): our words for what went wrong, never the remote server's. */
export const DeliveryErrorText = (example: string) =>
  ErrorText({
    example,
    description:
      'Why the last attempt failed: a category (ADDRESS_NOT_ALLOWED, CONNECT, TIMEOUT, TLS, AUTH, REJECTED, PROTOCOL) with the SMTP ' +
      "reply code, HTTP status or local error code, never the remote server's text; or the configuration's or package's problem in words",
  });

/** A state field with a column default: may be omitted on create (the default is stored). */
export const State = (values: readonly string[], defaultValue: string, o: { example?: string; description: string }) =>
  Field.oneOf(values, { default: defaultValue, example: defaultValue, ...o });

export const Enabled = () => Field.bool({ required: true, default: true, example: true, description: 'Whether it may be used' });

/** A count: never negative, 0 when omitted. */
export const Count = (o: { example: number; description: string }) => Field.int({ min: 0, default: 0, ...o });

/** What a message was sent for: a business type and the id of that business record (free codes of the caller). */
export abstract class BusinessRecord extends BaseRecord {
  @Code(CODE_MAX, { example: 'ORDER', description: 'Kind of business record the message is about' })
  businessType: string | null;

  @Field.text({ max: CODE_MAX, key: true, example: 'SO-2026-0001', description: 'Identifier of that business record' })
  businessId: string | null;
}

/** name, enabled, remark: what every sender configuration has. */
export abstract class ConfigRecord extends BaseRecord {
  @Name({ required: true, example: 'Default sender' })
  name: string;

  @Enabled()
  enabled: boolean;

  @Remark()
  remark: string | null;
}

/** code (unique per tenant), name, enabled, remark: what every template has. */
export abstract class TemplateRecord extends BaseRecord {
  @Code(CODE_MAX, { required: true, example: 'password-reset', description: "Unique among the tenant's live templates of this kind" })
  code: string;

  @Name({ required: true, example: 'Password reset' })
  name: string;

  @Enabled()
  enabled: boolean;

  @Remark()
  remark: string | null;
}

/** The order of a template's configurations (ascending): 0 when omitted. */
export abstract class LinkRecord extends BaseRecord {
  @Field.int({ default: 0, example: 1, description: 'Order of the configurations of one template (ascending)' })
  sort: number;
}
