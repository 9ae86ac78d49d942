import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiProperty, ApiResponse } from '@nestjs/swagger';
import { ApiTag } from '../openapi/tags';
import { HealthCheckService, HealthIndicatorFunction, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Operation } from '../auth/operation';
import { UnavailableException } from '../http/app-exception';
import { DrainState } from './drain-state';
import { HealthDetails, withTimeout } from './health-details';
import { SchemaState } from './schema-state';

/** Each check's timeout: a probe must answer well within the orchestrator's probe timeout. */
const CHECK_TIMEOUT_MS = 2000;

export class HealthReport {
  @ApiProperty({ example: 'ok', description: '`ok`, or `error` when a check is down' }) status: string;
  @ApiProperty({
    example: { shutdown: { status: 'up' }, database: { status: 'up' }, schema: { status: 'up' } },
    description: 'Each check and its status (`up`/`down`)',
  })
  details: Record<string, { status: string }>;
  @ApiProperty({
    required: false,
    type: Object,
    additionalProperties: true,
    example: { messaging: { transport: 'kafka', broker: 'down', brokerStateSince: 1790000000000, outboxBacklog: 3 } },
    description:
      'State of background parts that readiness does not wait on (such as a message bus and its outbox backlog, see docs/operations.md); `null` when it could not be read in time',
  })
  background?: Record<string, unknown>;
}

interface TerminusResult {
  status: string;
  details?: Record<string, { status?: string }>;
}

/** Only each check's status: terminus' messages may carry driver text. */
function report(result: TerminusResult, background: Record<string, unknown> | undefined): HealthReport {
  const details = Object.fromEntries(
    Object.entries(result.details ?? {}).map(([key, value]) => [key, { status: String(value?.status ?? 'down') }]),
  );
  return background ? { status: result.status, details, background } : { status: result.status, details };
}

/**
 * Probes of contract.md "Tenancy and access" (anonymous), in the envelope: live has no dependency (a restart would not help
 * a database outage); ready checks what a request needs (the database and its migrated schema), and fails at once when shutting down. Parts no
 * answer waits on (a message broker: imports wait in the outbox) are shown in `background`, never checked: an unready pod
 * leaves its Service, and would fail every call for an outage the calls do not feel.
 */
@ApiTag('operations', 'Health probes of this service (anonymous): liveness and readiness, in the envelope.')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly drain: DrainState,
    private readonly details: HealthDetails,
    private readonly schema: SchemaState,
  ) {}

  @Get('live')
  @Operation({ public: true, summary: 'Liveness: the process answers (no dependency checked)', response: { data: HealthReport } })
  live(): HealthReport {
    return { status: 'ok', details: {} };
  }

  @Get('ready')
  @Operation({
    public: true,
    summary: 'Readiness: database reachable and migrated, not shutting down; background parts (message bus, outbox) shown, not checked',
    description:
      "HTTP 503 with body status 503 and each check's status in `extraData.health` when a check fails. `background` shows the state of parts readiness does not wait on.",
    response: { data: HealthReport },
  })
  @ApiResponse({ status: 503, description: 'Envelope with status 503; `extraData.health` is the report' })
  async ready(): Promise<HealthReport> {
    const checks: HealthIndicatorFunction[] = [
      () => (this.drain.isDraining ? this.indicators.check('shutdown').down() : this.indicators.check('shutdown').up()),
      () => this.db.pingCheck('database', { timeout: CHECK_TIMEOUT_MS }),
      // down until every migration the service was built with is applied (or while the database cannot be read)
      async () =>
        (await withTimeout(this.schema.pending(), CHECK_TIMEOUT_MS)) === 0
          ? this.indicators.check('schema').up()
          : this.indicators.check('schema').down(),
    ];
    const background = this.details.read(CHECK_TIMEOUT_MS);
    try {
      const result = await this.health.check(checks);
      return report(result, await background);
    } catch (error) {
      if (error instanceof ServiceUnavailableException)
        throw new UnavailableException({ health: report(error.getResponse() as TerminusResult, await background) });
      throw error;
    }
  }
}
