import { Injectable } from '@nestjs/common';
import { isIP } from 'node:net';
import { createTransport, Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';
import { AddressGuard } from './address-guard';
import { withinDeadline } from './attempt-deadline';
import { Email } from '../email/email.entity';
import { EmailTemplate } from '../email-template/email-template.entity';
import { connectionFailure, DeliveryFailure, systemCode } from './delivery-failure';
import { EmailConfigWithPassword } from './delivery-records';
import { parseParams, renderTemplate } from './render-template';
import { MainServiceConfig } from '../../main-service.config';

/** An e-mail ready to go: what the record says, or what its template renders. */
export interface RenderedEmail {
  subject: string;
  body: string;
  html: boolean;
}

/**
 * Bounds of the SMTP steps (DISPATCH_SMTP_TIMEOUT_MS): a server that does not answer fails the attempt early.
 * A server that keeps answering slowly is never idle: the attempt's deadline (withinDeadline) bounds it.
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
 * The connection of a configuration: to `address` (the one the guard checked, so nodemailer never looks the
 * name up again), with SNI and the certificate checked against the configured host name. With a login, the
 * password goes only over TLS (SMTPS, or STARTTLS, required) unless the configuration says it accepts
 * cleartext (a local relay).
 */
export function smtpOptions(config: EmailConfigWithPassword, address: string) {
  return {
    host: address,
    port: config.port,
    secure: config.secure,
    ...(isIP(config.host) ? {} : { servername: config.host }),
    requireTLS: !!config.username && !config.allowCleartextLogin,
    auth: config.username ? { user: config.username, pass: config.password ?? '' } : undefined,
  };
}

/** A nodemailer error as a failure category with the SMTP reply code or local error code, never the reply text. */
export function smtpFailure(error: unknown): DeliveryFailure {
  const { code, originalCode, responseCode } = (error ?? {}) as { code?: unknown; originalCode?: unknown; responseCode?: unknown };
  const reply =
    Number.isInteger(responseCode) && Number(responseCode) >= 200 && Number(responseCode) < 600
      ? `SMTP ${Number(responseCode)}`
      : undefined;
  const local = systemCode({ code: originalCode });
  switch (code) {
    case 'EAUTH':
    case 'ENOAUTH':
      return DeliveryFailure.of('AUTH', reply);
    case 'ETLS':
    case 'EREQUIRETLS':
      return DeliveryFailure.of('TLS', reply ?? local);
    case 'ETIMEDOUT':
      return DeliveryFailure.of('TIMEOUT');
    case 'EENVELOPE':
    case 'EMESSAGE':
      return DeliveryFailure.of('REJECTED', reply);
    case 'EPROTOCOL':
      return DeliveryFailure.of('PROTOCOL', reply);
  }
  // a system error (nodemailer keeps its code in originalCode) tells more than a reply that came before it
  if (reply && !local) return DeliveryFailure.of('REJECTED', reply);
  return connectionFailure(local);
}

/**
 * SMTP through nodemailer: one pooled transport per configuration (and revision and address, so an edited
 * configuration or a new DNS answer takes effect at once). `secure` true is TLS from the first byte (SMTPS);
 * false upgrades with STARTTLS when the server offers it (and must, for a login). The password is used to
 * log in and is never logged (nodemailer's logger stays off) nor stored (failures keep no server text).
 */
@Injectable()
export class EmailSender {
  private readonly transports = new Map<string, { revision: number; address: string; transport: Transporter<SMTPPool.SentMessageInfo> }>();

  constructor(
    private readonly guard: AddressGuard,
    private readonly config: MainServiceConfig,
  ) {}

  /**
   * One attempt: the lookup and the whole SMTP transaction within DISPATCH_ATTEMPT_TIMEOUT_MS (withinDeadline);
   * past it, the pool closes the connection carrying this message (its other connections go on).
   */
  async send(config: EmailConfigWithPassword, record: Email, email: RenderedEmail): Promise<void> {
    if (config.username && !config.password)
      throw new DeliveryFailure(`e-mail configuration ${config.emailConfigId} has a username but no password`, true);
    await withinDeadline(this.config.dispatchAttemptTimeoutMs, async (signal) => {
      const address = await this.guard.pin(config.host);
      try {
        await this.transportFor(config, address).sendMail({
          from: { name: config.fromAddress === record.fromAddress ? (config.fromName ?? '') : '', address: record.fromAddress },
          to: record.toAddresses,
          cc: record.ccAddresses ?? undefined,
          bcc: record.bccAddresses ?? undefined,
          subject: email.subject,
          ...(email.html ? { html: email.body } : { text: email.body }),
          signal,
        });
      } catch (error) {
        throw smtpFailure(error);
      }
    });
  }

  /** Closes every pooled connection (service shutdown). */
  close(): void {
    for (const { transport } of this.transports.values()) transport.close();
    this.transports.clear();
  }

  private transportFor(config: EmailConfigWithPassword, address: string): Transporter<SMTPPool.SentMessageInfo> {
    const key = `${config.tenantId}/${config.emailConfigId}`;
    const cached = this.transports.get(key);
    if (cached?.revision === config.revision && cached.address === address) return cached.transport;
    cached?.transport.close();
    const transport = createTransport({
      ...POOL,
      ...smtpOptions(config, address),
      ...smtpTimeouts(this.config.dispatchSmtpTimeoutMs),
      logger: false,
      debug: false,
    });
    this.transports.set(key, { revision: config.revision, address, transport });
    return transport;
  }
}
