import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { Code } from '../../fields/text-fields';
import { ConfigRecord } from '../fields/message-fields';
import { CODE_MAX, SECRET_MAX, URL_MAX } from '../fields/message-values';

/**
 * The fields that decide how the access key secret is used (provider: its signing and, without an endpoint, its
 * default address), where it goes (endpoint) and for which account (accessKeyId): changing one clears the stored
 * secret unless the same update gives it (sender-config-writes.ts).
 */
export const SECRET_BOUND_FIELDS: readonly (keyof SmsConfig & string)[] = ['provider', 'endpoint', 'accessKeyId'];

/** An SMS provider account. */
@Entity('message_sms_config')
export class SmsConfig extends ConfigRecord {
  @Field.id()
  smsConfigId: string;

  @Code(CODE_MAX, { required: true, example: 'aliyun', description: 'SMS provider (a code of the caller, e.g. aliyun, tencent, twilio)' })
  provider: string;

  @Field.text({
    max: URL_MAX,
    key: true,
    format: 'url',
    example: 'https://dysmsapi.aliyuncs.com',
    description:
      "Provider API endpoint (http or https); null: the provider's default. Its host must resolve to public addresses only unless " +
      'the operator allows it in DELIVERY_ALLOWED_HOSTS. Changing it clears the stored accessKeySecret unless the same request gives one',
  })
  endpoint: string | null;

  @Code(CODE_MAX, { example: 'cn-hangzhou', description: 'Provider region' })
  region: string | null;

  @Field.text({
    max: CODE_MAX * 2,
    required: true,
    key: true,
    example: 'LTAI5tExampleKeyId',
    description: 'Access key id of the provider account',
  })
  accessKeyId: string;

  @Field.text({
    max: SECRET_MAX,
    required: true,
    secret: true,
    example: 'example-access-key-secret',
    description: `Signs the provider requests (write-only); omitted on update: kept, unless one of ${SECRET_BOUND_FIELDS.join(', ')} changes (then it is cleared)`,
  })
  accessKeySecret?: string;

  @Field.text({ max: CODE_MAX, example: 'Example', description: 'Signature shown to recipients, as registered with the provider' })
  signName: string | null;
}
