import { CoalescingLoop, DeliveryOutcome, MainServiceConfig, Metrics, replicaName } from '@app/common';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DeliveryClaims, DeliveryTarget } from './delivery-claims';
import { DeliveryFailure } from './delivery-failure';
import { AttemptOutcome, DeliveryRecords } from './delivery-records';
import { EmailSender, renderEmail } from './email-sender';
import { DeliveryChannel } from './message-delivery.entity';
import { parseParams, renderTemplate } from './render-template';
import { SmsPackageUnits } from './sms-package-units';
import { SmsSender } from './sms-sender';

/** Messages claimed per scan and channel. */
const BATCH = 50;
/** Messages in flight at once per replica. */
const CONCURRENCY = 8;
/** A claim outlives any attempt (SMTP and provider calls are bounded far below it); a dead replica's claims expire after it. */
const LEASE_MS = 10 * 60_000;
const BACKOFF_CAP_MS = 3600_000;
const CHANNELS: DeliveryChannel[] = ['email', 'sms'];

/**
 * Sends the e-mails and SMS the message group stores with status PENDING and records the outcome:
 * SENT with sendTime (and the provider's id), or, after DISPATCH_MAX_RETRIES attempts with exponential
 * backoff (or at once when retrying cannot help), FAILED with the reason. Every replica dispatches;
 * a message is claimed in the database before it is sent, so no two replicas send it (see DeliveryClaims).
 */
@Injectable()
export class DeliveryDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryDispatcher.name);
  /** This replica's name on its claims. */
  readonly holder = replicaName();
  private readonly loop = new CoalescingLoop(
    () => this.pass(),
    (error) => this.logger.warn(`delivery pass failed: ${error.name}`),
  );

  constructor(
    private readonly config: MainServiceConfig,
    private readonly metrics: Metrics,
    private readonly claims: DeliveryClaims,
    private readonly records: DeliveryRecords,
    private readonly units: SmsPackageUnits,
    private readonly emailSender: EmailSender,
    private readonly smsSender: SmsSender,
  ) {}

  onApplicationBootstrap(): void {
    this.metrics.countPendingWith(() => this.claims.countPendingAcrossTenants());
    if (!this.config.dispatchEnabled) return;
    this.loop.start(this.config.dispatchPollMs);
  }

  /** Before the data source closes: no new claims, the attempts in flight finish, unstarted claims are released. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    await this.claims.releaseAll(this.holder).catch(() => undefined);
    this.emailSender.close();
  }

  /** Starts a pass now (or right after the current one). */
  kick(): void {
    this.loop.kick();
  }

  /** Claims and delivers due messages until none is left, then drops the bookkeeping of messages that stopped waiting. */
  private async pass(): Promise<void> {
    let busy = true;
    while (busy && !this.loop.stopped) {
      busy = false;
      for (const channel of CHANNELS) {
        if (this.loop.stopped) break;
        const due = await this.claims.scanDueAcrossTenants(channel, Date.now(), BATCH);
        const claimed = await this.claims.claim(due, this.holder, LEASE_MS);
        if (claimed.length) busy = true;
        await this.deliverAll(claimed);
      }
    }
    if (!this.loop.stopped) await this.claims.pruneAcrossTenants(Date.now());
  }

  private async deliverAll(targets: DeliveryTarget[]): Promise<void> {
    const queue = [...targets];
    const worker = async () => {
      for (let target = queue.shift(); target; target = queue.shift()) {
        if (this.loop.stopped) await this.claims.release(target, this.holder, 0).catch(() => undefined);
        else await this.deliver(target);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
  }

  /** One attempt at one claimed message, and its outcome written. */
  private async deliver(target: DeliveryTarget): Promise<void> {
    try {
      const attempt = target.channel === 'email' ? await this.sendEmail(target) : await this.sendSms(target);
      if (attempt === undefined) return this.claims.finish(target, this.holder); // no longer PENDING
      try {
        const providerMessageId = await attempt.send();
        await this.record(target, 'sent', {
          status: 'SENT',
          retryCount: attempt.retryCount + 1,
          sendTime: Date.now(),
          errorMessage: null,
          ...(providerMessageId ? { providerMessageId } : {}),
        });
      } catch (error) {
        await this.failed(target, attempt.retryCount + 1, error);
      }
    } catch (error) {
      // the database failed us (or a bug): the claim expires and the message is tried again later
      const { name, code } = error as Error & { code?: unknown };
      this.logger.warn(
        `delivering ${target.channel} ${target.scope.tenantId}/${target.messageId} failed: ${name}${typeof code === 'string' ? ` ${code}` : ''}`,
      );
    }
  }

  private async failed(target: DeliveryTarget, retryCount: number, error: unknown): Promise<void> {
    const failure = error instanceof DeliveryFailure ? error : new DeliveryFailure('internal error');
    if (!(error instanceof DeliveryFailure))
      this.logger.warn(`${target.channel} ${target.scope.tenantId}/${target.messageId}: ${(error as Error).name}`);
    if (failure.permanent || retryCount >= this.config.dispatchMaxRetries) {
      return this.record(target, 'failed', { status: 'FAILED', retryCount, errorMessage: failure.message });
    }
    const delay = Math.min(BACKOFF_CAP_MS, this.config.dispatchRetryBaseMs * 2 ** (retryCount - 1));
    await this.records.recordAttempt(target.channel, target.scope, target.messageId, {
      status: 'PENDING',
      retryCount,
      errorMessage: failure.message,
    });
    await this.claims.release(target, this.holder, Date.now() + delay);
    this.metrics.messageAttempted(target.channel, 'retry');
  }

  /**
   * The final outcome: on the message row first, then the bookkeeping goes, so a replica scanning in
   * between finds the message no longer PENDING. (Two statements, not a transaction: on SQLite's one
   * connection a transaction of this worker would take in the statements of the others running meanwhile.)
   */
  private async record(target: DeliveryTarget, outcome: DeliveryOutcome, values: AttemptOutcome): Promise<void> {
    await this.records.recordAttempt(target.channel, target.scope, target.messageId, values);
    await this.claims.finish(target, this.holder);
    this.metrics.messageAttempted(target.channel, outcome);
  }

  /** Loads what an e-mail needs; `send` then makes the one attempt. */
  private async sendEmail({ scope, messageId }: DeliveryTarget): Promise<Attempt | undefined> {
    const record = await this.records.pendingEmail(scope, messageId);
    if (!record) return undefined;
    return {
      retryCount: record.retryCount,
      send: async () => {
        const template = record.emailTemplateId ? await this.records.emailTemplate(scope, record.emailTemplateId) : null;
        const email = renderEmail(record, template);
        const config = await this.records.emailConfig(scope, record.emailConfigId);
        await this.emailSender.send(config, record, email);
        return undefined;
      },
    };
  }

  /** Loads what an SMS needs; `send` takes one package unit per number, gives them back if the provider fails. */
  private async sendSms({ scope, messageId }: DeliveryTarget): Promise<Attempt | undefined> {
    const record = await this.records.pendingSms(scope, messageId);
    if (!record) return undefined;
    return {
      retryCount: record.retryCount,
      send: async () => {
        const template = record.smsTemplateId ? await this.records.smsTemplate(scope, record.smsTemplateId) : null;
        if (!record.content && !template) throw new DeliveryFailure(`SMS template ${record.smsTemplateId ?? '(none)'} not found`, true);
        const params = parseParams(record.params);
        const config = await this.records.smsConfig(scope, record.smsConfigId);
        this.smsSender.checkUsable(config);
        const request = {
          phoneNumbers: record.phoneNumbers,
          content: record.content || renderTemplate(template!.content, params, 'text'),
          signName: config.signName,
          templateCode: template?.providerTemplateCode ?? null,
          params,
        };
        const taken = await this.units.take(scope, record.phoneNumbers.length);
        try {
          return await this.smsSender.send(config, request);
        } catch (error) {
          await this.units.giveBack(scope, taken);
          throw error;
        }
      },
    };
  }
}

/** One attempt at a loaded message: resolves to the provider's message id, if it gives one. */
interface Attempt {
  retryCount: number;
  send(): Promise<string | undefined>;
}
