import { Controller, Get, NotFoundException, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Operation } from '../auth/operation';
import { ServerConfig } from '../config/server.config';
import { Metrics } from './metrics';

/**
 * `{prefix}/metrics`: the one response that is not the envelope (Prometheus reads text; docs/decisions.md).
 * Left out of the public OpenAPI documents: a scraper's endpoint, not a client's (docs/operations.md).
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    private readonly config: ServerConfig,
  ) {}

  @Get()
  @Operation({
    public: true,
    summary: 'Prometheus metrics of this service',
    description: 'Prometheus text exposition format, not the envelope. 404 when METRICS_ENABLED=false.',
    failures: [{ status: 404, when: 'Metrics are switched off (METRICS_ENABLED=false).' }],
    raw: { contentType: 'text/plain; version=0.0.4', description: 'Prometheus text exposition format' },
  })
  async scrape(@Res() res: Response): Promise<void> {
    if (!this.config.metricsEnabled) throw new NotFoundException();
    res.type(this.metrics.registry.contentType).send(await this.metrics.registry.metrics());
  }
}
