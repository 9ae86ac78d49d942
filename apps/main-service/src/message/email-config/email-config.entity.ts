import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { Name } from '../../fields/text-fields';
import { ConfigRecord } from '../fields/message-fields';
import { EMAIL_MAX, HOST_MAX, SECRET_MAX } from '../fields/message-values';

/**
 * The fields that decide where the password goes (host, port), how it travels (secure, allowCleartextLogin), as
 * whose login (username) and in whose name the login sends (fromAddress, allowAnyFromAddress): changing one
 * clears the stored password unless the same update gives it (sender-config-writes.ts).
 */
export const PASSWORD_BOUND_FIELDS: readonly (keyof EmailConfig & string)[] = [
  'host',
  'port',
  'secure',
  'username',
  'allowCleartextLogin',
  'fromAddress',
  'allowAnyFromAddress',
];

/** An SMTP sender. */
@Entity('message_email_config')
export class EmailConfig extends ConfigRecord {
  @Field.id()
  emailConfigId: string;

  @Field.text({
    max: HOST_MAX,
    required: true,
    key: true,
    format: 'hostname',
    example: 'smtp.example.com',
    description:
      'SMTP server host name or IP address. Must resolve to public addresses only (not loopback, private, link-local or other ' +
      'special ranges) unless the operator allows the host in DELIVERY_ALLOWED_HOSTS. Changing it clears the stored password ' +
      'unless the same request gives one (see password)',
  })
  host: string;

  @Field.int({ required: true, min: 1, max: 65535, example: 465, description: 'SMTP server port (1 to 65535)' })
  port: number;

  @Field.bool({
    default: false,
    example: true,
    description:
      'TLS from the first byte (SMTPS, usually port 465); false: STARTTLS when offered (required for a login, see allowCleartextLogin)',
  })
  secure: boolean;

  @Field.text({ max: HOST_MAX, key: true, example: 'noreply@example.com', description: 'SMTP login; null: no authentication' })
  username: string | null;

  @Field.text({
    max: SECRET_MAX,
    secret: true,
    example: 'app-password-123',
    description: `SMTP password (write-only); omitted on update: kept, unless one of ${PASSWORD_BOUND_FIELDS.join(', ')} changes (then it is cleared)`,
  })
  password?: string | null;

  @Field.bool({
    default: false,
    example: false,
    description:
      'true: the login may go over a connection without TLS (a local relay that offers no STARTTLS); ' +
      'false: with a username, the server must offer STARTTLS (or secure is true), else nothing is sent',
  })
  allowCleartextLogin: boolean;

  @Field.text({
    max: EMAIL_MAX,
    required: true,
    key: true,
    format: 'email',
    example: 'noreply@example.com',
    description: 'Sender address (From)',
  })
  fromAddress: string;

  @Name({ example: 'Example Back Office', description: 'Sender display name' })
  fromName: string | null;

  @Field.bool({
    default: false,
    example: false,
    description:
      "Whether e-mails sent with it may use any From address; false: only fromAddress or another address of fromAddress's domain",
  })
  allowAnyFromAddress: boolean;
}
