import { Bool, ClientId, Int, Text } from '@app/common';
import { Name } from '../../shared/fields';
import { ConfigFields } from '../shared/message-fields';
import { EMAIL_MAX, HOST_MAX, SECRET_MAX } from '../shared/message-values';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class EmailConfigSave extends ConfigFields {
  @ClientId()
  emailConfigId?: string;

  @Text({ max: HOST_MAX, required: true, key: true, format: 'hostname', example: 'smtp.example.com', description: 'SMTP server host name or IP address' })
  host: string;

  @Int({ required: true, min: 1, max: 65535, example: 465, description: 'SMTP server port' })
  port: number;

  @Bool({ nullable: false, default: false, example: true, description: 'TLS from the first byte (SMTPS, usually port 465); false (default): plain or STARTTLS' })
  secure?: boolean;

  @Text({ max: HOST_MAX, key: true, example: 'noreply@example.com', description: 'SMTP login; null: no authentication' })
  username?: string | null;

  @Text({ max: SECRET_MAX, writeOnly: true, example: 'app-password-123' })
  password?: string | null;

  @Text({ max: EMAIL_MAX, required: true, key: true, format: 'email', example: 'noreply@example.com', description: 'Sender address (From)' })
  fromAddress: string;

  @Name({ example: 'Example Back Office', description: 'Sender display name' })
  fromName?: string | null;
}
