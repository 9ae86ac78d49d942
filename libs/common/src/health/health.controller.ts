import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiProperty, ApiResponse } from '@nestjs/swagger';
import { ApiTag } from '../openapi/tags';
import { HealthCheckService, HealthIndicatorFunction, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Operation } from '../auth/operation';
import { MessagingConfig } from '../config/messaging.config';
import { UnavailableException } from '../http/app-exception';
import { MessageBus } from '../messaging/message-bus';
import { DrainState } from './drain-state';

/** Each check's timeout: a probe must answer well within the orchestrator's probe timeout. */
const CHECK_TIMEOUT_MS = 2000;

export class HealthReport {
  @ApiProperty({ example: 'ok', description: '`ok`, or `error` when a check is down' }) status: string;
  @ApiProperty({ example: { database: { status: 'up' } }, description: 'Each check and its status (`up`/`down`)' }) details: Record<
    string,
    { status: string }
  >;
}

interface TerminusResult {
  status: string;
  details?: Record<string, { status?: string }>;
}

/** Only each check's status: terminus' messages may carry driver or broker text. */
function report(result: TerminusResult): HealthReport {
  const details = Object.fromEntries(
    Object.entries(result.details ?? {}).map(([key, value]) => [key, { status: String(value?.status ?? 'down') }]),
  );
  return { status: result.status, details };
}

/**
 * Probes of contract.md "Tenancy and access" (anonymous), in the envelope: live has no dependency (a restart would not help
 * a database outage); ready checks what a request needs, and fails at once when shutting down.
 */
@ApiTag('operations', 'Health probes of this service (anonymous): liveness and readiness, in the envelope.')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly bus: MessageBus,
    private readonly config: MessagingConfig,
    private readonly drain: DrainState,
  ) {}

  @Get('live')
  @Operation({ public: true, summary: 'Liveness: the process answers (no dependency checked)', response: { data: HealthReport } })
  live(): HealthReport {
    return { status: 'ok', details: {} };
  }

  @Get('ready')
  @Operation({
    public: true,
    summary: 'Readiness: database, Kafka (when KAFKA_BROKERS is set), not shutting down',
    description: "HTTP 503 with body status 503 and each check's status in `extraData.health` when a check fails.",
    response: { data: HealthReport },
  })
  @ApiResponse({ status: 503, description: 'Envelope with status 503; `extraData.health` is the report' })
  async ready(): Promise<HealthReport> {
    const checks: HealthIndicatorFunction[] = [
      () => (this.drain.isDraining ? this.indicators.check('shutdown').down() : this.indicators.check('shutdown').up()),
      () => this.db.pingCheck('database', { timeout: CHECK_TIMEOUT_MS }),
    ];
    if (this.config.kafkaBrokers)
      checks.push(() =>
        this.indicators
          .check('kafka')
          .attempt(() => this.bus.ping())
          .withTimeout(CHECK_TIMEOUT_MS),
      );
    try {
      return report(await this.health.check(checks));
    } catch (error) {
      if (error instanceof ServiceUnavailableException)
        throw new UnavailableException({ health: report(error.getResponse() as TerminusResult) });
      throw error;
    }
  }
}
