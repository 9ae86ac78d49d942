import { ClientId, Text } from '@app/common';
import { Code } from '../../shared/fields';
import { ConfigFields } from '../shared/message-fields';
import { CODE_MAX, SECRET_MAX, URL_MAX } from '../shared/message-values';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class SmsConfigSave extends ConfigFields {
  @ClientId()
  smsConfigId?: string;

  @Code(CODE_MAX, { required: true, example: 'aliyun', description: 'SMS provider (a code of the caller, e.g. aliyun, tencent, twilio)' })
  provider: string;

  @Text({ max: URL_MAX, key: true, format: 'url', example: 'https://dysmsapi.aliyuncs.com', description: "Provider API endpoint (http or https); null: the provider's default" })
  endpoint?: string | null;

  @Code(CODE_MAX, { example: 'cn-hangzhou', description: 'Provider region' })
  region?: string | null;

  @Text({ max: CODE_MAX * 2, required: true, key: true, example: 'LTAI5tExampleKeyId', description: 'Access key id of the provider account' })
  accessKeyId: string;

  @Text({ max: SECRET_MAX, required: true, writeOnly: true, example: 'example-access-key-secret' })
  accessKeySecret: string;

  @Text({ max: CODE_MAX, example: 'Example', description: 'Signature shown to recipients, as registered with the provider' })
  signName?: string | null;
}
