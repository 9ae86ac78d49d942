import { MainServiceConfig } from '@app/common';
import { Injectable } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';
import { Email } from '../email/email.entity';
import { EmailTemplate } from '../email-template/email-template.entity';
import { DeliveryFailure, failureText } from './delivery-failure';
import { EmailConfigWithPassword } from './delivery-records';
import { isUnreachable } from './delivery-unreachable';
import { parseParams, renderTemplate } from './render-template';

/** An e-mail ready to go: what the record says, or what its template renders. */
export interface RenderedEmail {
  subject: string;
  body: string;
  html: boolean;
}

/**
 * Bounds of one SMTP exchange (DISPATCH_SMTP_TIMEOUT_MS), well inside the claim lease and the shutdown
 * timeout: a stalled server fails the attempt (and it is retried) instead of holding the message.
 */
const smtpTimeouts = (ms: number) => ({ connectionTimeout: ms, greetingTimeout: ms, socketTimeout: 3 * ms });
/**
 * Connections per configuration and replica: enough to pipeline, few enough for a provider's limits.
 * Idle ones close after 30 s. The pool never re-sends on its own (maxRequeues 0): a connection lost
 * mid-message fails the attempt, and the dispatcher's retries (counted, backed off) decide.
 */
const POOL = { pool: true, maxConnections: 3, idleTimeout: 30_000, maxRequeues: 0 } as const;

/** Without a template saying so, a body is HTML when it holds an element. */
const looksLikeHtml = (text: string) => /<([a-z][a-z0-9]*)\b[^>]*>/i.test(text);

/**
 * The subject and body of an e-mail: its own when given; a record with a template and no subject or
 * content takes them from the template rendered with the record's `params` (a JSON object; HTML-escaped
 * values in an `html` template).
 */
export function renderEmail(record: Email, template: EmailTemplate | null): RenderedEmail {
  if ((!record.subject || !record.content) && !template)
    throw new DeliveryFailure(`e-mail template ${record.emailTemplateId ?? '(none)'} not found`, true);
  const params = parseParams((record as Email & { params?: string | null }).params);
  const html = template ? template.contentType === 'html' : looksLikeHtml(record.content);
  return {
    subject: record.subject || renderTemplate(template!.subject, params, 'text'),
    body: record.content || renderTemplate(template!.content, params, html ? 'html' : 'text'),
    html,
  };
}

/**
 * SMTP through nodemailer: one pooled transport per configuration (and revision, so an edited
 * configuration takes effect at once). `secure` true is TLS from the first byte (SMTPS); false upgrades
 * with STARTTLS when the server offers it. The password is used to log in and is never logged: nodemailer's
 * logger stays off, and failure texts have it blanked out.
 */
@Injectable()
export class EmailSender {
  private readonly transports = new Map<string, { revision: number; transport: Transporter<SMTPPool.SentMessageInfo> }>();

  constructor(private readonly config: MainServiceConfig) {}

  async send(config: EmailConfigWithPassword, record: Email, email: RenderedEmail): Promise<void> {
    try {
      await this.transportFor(config).sendMail({
        from: { name: config.fromAddress === record.fromAddress ? (config.fromName ?? '') : '', address: record.fromAddress },
        to: record.toAddresses,
        cc: record.ccAddresses ?? undefined,
        bcc: record.bccAddresses ?? undefined,
        subject: email.subject,
        ...(email.html ? { html: email.body } : { text: email.body }),
      });
    } catch (error) {
      throw new DeliveryFailure(
        failureText(error, [
          config.password,
          config.username && config.password ? Buffer.from(`\0${config.username}\0${config.password}`).toString('base64') : null,
        ]),
        false,
        isUnreachable(error),
      );
    }
  }

  /** Closes every pooled connection (service shutdown). */
  close(): void {
    for (const { transport } of this.transports.values()) transport.close();
    this.transports.clear();
  }

  private transportFor(config: EmailConfigWithPassword): Transporter<SMTPPool.SentMessageInfo> {
    const key = `${config.tenantId}/${config.emailConfigId}`;
    const cached = this.transports.get(key);
    if (cached?.revision === config.revision) return cached.transport;
    cached?.transport.close();
    const transport = createTransport({
      ...POOL,
      host: config.host,
      port: config.port,
      secure: config.secure,
      auth: config.username ? { user: config.username, pass: config.password ?? '' } : undefined,
      ...smtpTimeouts(this.config.dispatchSmtpTimeoutMs),
      logger: false,
      debug: false,
    });
    this.transports.set(key, { revision: config.revision, transport });
    return transport;
  }
}
