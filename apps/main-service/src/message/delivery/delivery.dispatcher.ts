import { CoalescingLoop, replicaName } from '@app/common';
import { TENANT_ID } from '@app/common/tracing/span-attributes';
import { inSpan, outsideAnyTrace, withCarriedTrace } from '@app/common/tracing/trace-context';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { DeliveryClaims, DeliveryTarget } from './delivery-claims';
import { DeliveryFailure } from './delivery-failure';
import { DeliveryMetrics, DeliveryOutcome } from './delivery-metrics';
import { AttemptOutcome, DeliveryRecords } from './delivery-records';
import { fromAddressRefusal } from '../email/email-from-address';
import { EmailSender, renderEmail } from './email-sender';
import { Candidate, FairScan } from './fair-scan';
import { growingDelay } from './growing-delay';
import { DeliveryChannel } from './message-delivery.entity';
import { parseParams, renderTemplate } from './render-template';
import { AttemptReport, SenderBreakers } from './sender-breakers';
import { SmsPackageUnits } from './sms-package-units';
import { SmsSender } from './sms-sender';
import { DISPATCH_CLAIM_LEASE_MS, DISPATCH_CONCURRENCY, MainServiceConfig } from '../../main-service.config';

const CHANNELS: DeliveryChannel[] = ['email', 'sms'];
/** The attempt span's attributes besides tenant.id; the outcome is `sent`, `retry`, `failed`, `not-pending` or `error`. */
const DELIVERY_CHANNEL = 'delivery.channel';
const DELIVERY_ATTEMPT = 'delivery.attempt';
const DELIVERY_OUTCOME = 'delivery.outcome';

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
  /** The attempts under way (at most DISPATCH_CONCURRENCY), each with its tenant. */
  private readonly active = new Map<Promise<void>, string>();
  private passes = 0;
  private prunedAt = 0;
  private readonly loop = new CoalescingLoop(
    () => outsideAnyTrace(() => this.pass()),
    (error) => this.logger.warn(`delivery pass failed: ${error.name}`),
  );

  constructor(
    private readonly config: MainServiceConfig,
    private readonly metrics: DeliveryMetrics,
    private readonly claims: DeliveryClaims,
    private readonly scan: FairScan,
    private readonly breakers: SenderBreakers,
    private readonly records: DeliveryRecords,
    private readonly units: SmsPackageUnits,
    private readonly emailSender: EmailSender,
    private readonly smsSender: SmsSender,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.dispatchEnabled) return;
    this.loop.start(this.config.dispatchPollMs);
  }

  /**
   * Before the data source closes: no new claims, the attempts in flight finish (each within
   * DISPATCH_ATTEMPT_TIMEOUT_MS), claims left behind are released.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    await Promise.all(this.active.keys());
    await this.claims.releaseAll(this.holder).catch(() => undefined);
    this.emailSender.close();
  }

  /** Starts a pass now (or right after the current one). */
  kick(): void {
    this.loop.kick();
  }

  /**
   * Fills the free workers with due messages (fairly across tenants, see FairScan) until none is due or
   * no worker is free; each attempt that ends starts another pass. Then, at most once per poll interval,
   * drops the bookkeeping of messages that stopped waiting.
   */
  private async pass(): Promise<void> {
    while (!this.loop.stopped && this.active.size < DISPATCH_CONCURRENCY && (await this.startDue())) {
      // claimed some: look again while workers are free
    }
    const now = Date.now();
    if (!this.loop.stopped && now - this.prunedAt >= this.config.dispatchPollMs) {
      this.prunedAt = now;
      await this.claims.pruneAcrossTenants(now);
    }
  }

  /** Claims due messages for the free workers and starts them; false when none was claimed. */
  private async startDue(): Promise<boolean> {
    const now = Date.now();
    // the other replicas' claims, and this replica's attempts as they run (whatever their claim rows say)
    const inFlight = await this.claims.inFlightAcrossTenants(now, this.holder);
    for (const tenantId of this.active.values()) inFlight.set(tenantId, (inFlight.get(tenantId) ?? 0) + 1);
    // the channels take turns going first
    const channels = this.passes++ % 2 ? [...CHANNELS].reverse() : CHANNELS;
    let started = 0;
    for (const channel of channels) {
      const free = DISPATCH_CONCURRENCY - this.active.size;
      if (free <= 0 || this.loop.stopped) break;
      const candidates = await this.scan.due(channel, now, free, inFlight);
      const claimed = new Set(
        await this.claims.claim(
          candidates.map((c) => c.target),
          this.holder,
          DISPATCH_CLAIM_LEASE_MS,
        ),
      );
      for (const candidate of candidates) {
        if (!claimed.has(candidate.target)) {
          this.breakers.withdraw(candidate.admission);
          continue;
        }
        const { tenantId } = candidate.target.scope;
        inFlight.set(tenantId, (inFlight.get(tenantId) ?? 0) + 1);
        this.start(candidate);
        started++;
      }
    }
    return started > 0;
  }

  /** Runs one attempt on a free worker; when it ends, a pass looks for the next. */
  private start(candidate: Candidate): void {
    const attempt: Promise<void> = this.deliver(candidate).finally(() => {
      this.active.delete(attempt);
      this.loop.kick();
    });
    this.active.set(attempt, candidate.target.scope.tenantId);
  }

  /**
   * One attempt at one claimed message in a span of its own (`delivery.attempt`: channel, tenant, attempt number,
   * outcome; never addresses, subjects or credentials), in the trace of the request that last wrote the message.
   */
  private async deliver(candidate: Candidate): Promise<void> {
    const { channel, scope, messageId } = candidate.target;
    // a failed read costs the trace only; the attempt's own reads meet the same failure and report it
    const trace = await this.records.traceOf(channel, scope, messageId).catch(() => null);
    const attributes = { [DELIVERY_CHANNEL]: channel, [TENANT_ID]: scope.tenantId };
    await withCarriedTrace(trace, () => inSpan('delivery.attempt', attributes, (span) => this.attempt(candidate, span), SpanKind.CONSUMER));
  }

  /** One attempt at one claimed message, its outcome written, and reported to its configuration's breaker. */
  private async attempt({ target, admission }: Candidate, span: Span): Promise<void> {
    const report: AttemptReport = { unreachable: false };
    // the breaker hears of the attempt before its outcome is written: writing it frees the tenant's room in
    // flight, and a pass in between must already see the breaker as this attempt leaves it
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      this.breakers.settle(target.channel, target.scope.tenantId, target.configRef, admission, report, Date.now());
    };
    try {
      const attempt = target.channel === 'email' ? await this.sendEmail(target, report) : await this.sendSms(target, report);
      if (attempt === undefined) {
        span.setAttribute(DELIVERY_OUTCOME, 'not-pending');
        return await this.claims.finish(target, this.holder);
      }
      span.setAttribute(DELIVERY_ATTEMPT, attempt.retryCount + 1);
      try {
        const providerMessageId = await attempt.send();
        settle();
        span.setAttribute(DELIVERY_OUTCOME, 'sent');
        await this.record(target, 'sent', {
          status: 'SENT',
          retryCount: attempt.retryCount + 1,
          sendTime: Date.now(),
          errorMessage: null,
          ...(providerMessageId ? { providerMessageId } : {}),
        });
      } catch (error) {
        if (!settled) report.unreachable = error instanceof DeliveryFailure && error.unreachable;
        settle();
        span.setAttribute(DELIVERY_OUTCOME, await this.failed(target, attempt.retryCount + 1, error));
      }
    } catch (error) {
      // the database failed us (or a bug): the claim expires and the message is tried again later
      span.setAttribute(DELIVERY_OUTCOME, 'error');
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error | null)?.name });
      const { name, code } = error as Error & { code?: unknown };
      this.logger.warn(
        `delivering ${target.channel} ${target.scope.tenantId}/${target.messageId} failed: ${name}${typeof code === 'string' ? ` ${code}` : ''}`,
      );
    } finally {
      settle();
    }
  }

  /** Records a failed attempt: to be retried after a growing delay, or failed for good; answers which. */
  private async failed(target: DeliveryTarget, retryCount: number, error: unknown): Promise<DeliveryOutcome> {
    const failure = error instanceof DeliveryFailure ? error : new DeliveryFailure('internal error');
    const final = failure.permanent || retryCount >= this.config.dispatchMaxRetries;
    const delay = final ? undefined : growingDelay(this.config.dispatchRetryBaseMs, retryCount);
    this.logFailure(target, retryCount, failure, delay, error);
    if (delay === undefined) {
      await this.record(target, 'failed', { status: 'FAILED', retryCount, errorMessage: failure.message });
      return 'failed';
    }
    await this.records.recordAttempt(target.channel, target.scope, target.messageId, {
      status: 'PENDING',
      retryCount,
      errorMessage: failure.message,
    });
    await this.claims.release(target, this.holder, Date.now() + delay);
    this.metrics.attempted(target.channel, 'retry');
    return 'retry';
  }

  /**
   * One line per failed attempt, at warn: the failure as the record stores it (a category and a status or
   * code, never the remote server's text) and what comes next. An unexpected error adds its class only.
   */
  private logFailure(
    target: DeliveryTarget,
    attempt: number,
    failure: DeliveryFailure,
    retryInMs: number | undefined,
    error: unknown,
  ): void {
    this.logger.warn({
      msg: 'delivery attempt failed',
      channel: target.channel,
      messageId: target.messageId,
      tenantId: target.scope.tenantId,
      failure: failure.message,
      attempt,
      willRetry: retryInMs !== undefined,
      ...(retryInMs !== undefined ? { retryInMs } : {}),
      ...(error instanceof DeliveryFailure ? {} : { error: (error as Error | null)?.name ?? typeof error }),
    });
  }

  /**
   * The final outcome: on the message row first, then the bookkeeping goes, so a replica scanning in
   * between finds the message no longer PENDING. (Two statements, not a transaction: on SQLite's one
   * connection a transaction of this worker would take in the statements of the others running meanwhile.)
   */
  private async record(target: DeliveryTarget, outcome: DeliveryOutcome, values: AttemptOutcome): Promise<void> {
    await this.records.recordAttempt(target.channel, target.scope, target.messageId, values);
    await this.claims.finish(target, this.holder);
    this.metrics.attempted(target.channel, outcome);
  }

  /** Loads what an e-mail needs; `send` then makes the one attempt (`report` names the configuration it goes to). */
  private async sendEmail({ scope, messageId }: DeliveryTarget, report: AttemptReport): Promise<Attempt | undefined> {
    const record = await this.records.pendingEmail(scope, messageId);
    if (!record) return undefined;
    return {
      retryCount: record.retryCount,
      send: async () => {
        const template = record.emailTemplateId ? await this.records.emailTemplate(scope, record.emailTemplateId) : null;
        const email = renderEmail(record, template);
        const config = await this.records.emailConfig(scope, record.emailConfigId);
        // saving checked it when the configuration was known then; it may have changed since, or been unknown
        const refusal = fromAddressRefusal(config, record.fromAddress);
        if (refusal) throw new DeliveryFailure(refusal, true);
        report.configId = config.emailConfigId;
        await this.emailSender.send(config, record, email);
        return undefined;
      },
    };
  }

  /** Loads what an SMS needs; `send` takes one package unit per number, gives them back if the provider fails. */
  private async sendSms({ scope, messageId }: DeliveryTarget, report: AttemptReport): Promise<Attempt | undefined> {
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
        report.configId = config.smsConfigId;
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
