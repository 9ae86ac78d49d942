import { Logger } from '@nestjs/common';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { CrudConfig } from '../../config/crud.config';
import { AppException, HttpRefusal } from '../../http/app-exception';
import { message } from '../../i18n/message';
import { BaseRecord } from '../../persistence/base-record';
import { RequestContext } from '../../tenancy/request-context';
import { TenantScope } from '../../tenancy/tenant-scope';
import { Resource } from '../fields/resource';
import { ListControls } from '../http/query-controls';
import { ResourceQuery } from '../service/resource-query';
import { LiveRecordTable } from '../tables/live-record-table';
import { readSnapshot } from '../tables/read-snapshot';
import { ExportColumn, exportColumnsOf } from './export-columns';
import { exportFileName, exportFormatOf } from './export-format';
import { ExportOutput } from './export-output';
import { ExportSlots } from './export-slots';
import { keysetBatches, readingAhead } from './keyset-batches';
import { rowFileOf } from './row-files';

type Row = Record<string, unknown>;

/**
 * Rows per statement: one batch read off the order's index, a few milliseconds, far inside DB_STATEMENT_TIMEOUT_MS
 * at any depth of the export (keyset, never an offset).
 */
export const EXPORT_BATCH_ROWS = 2000;
/** What a client refused for the export bound is told to wait (Retry-After). */
export const EXPORT_RETRY_AFTER_SECONDS = 10;

export const exportsBusyText = (max: number) =>
  message('At most {{max}} exports run at once; retry after {{seconds}} s', { max, seconds: EXPORT_RETRY_AFTER_SECONDS });
export const tooManyRowsText = (count: number, max: number) =>
  message('The export would hold {{count}} rows, more than EXPORT_MAX_ROWS ({{max}}); narrow the filters', { count, max });

/**
 * A resource's live records matching a page's filters, in the page's order, as a file streamed to the client
 * (docs/contract.md "Export"): counted and read in ONE read view (read-snapshot.ts), so the file is the records as
 * they were at one moment; read in keyset batches; written with backpressure, so memory does not grow with the rows.
 * Admitted under EXPORT_CONCURRENCY, outside the latency-based in-flight limit. A client that goes away stops it at
 * once: the read view ends and its connection goes back to the pool.
 */
export class RecordExport<E extends BaseRecord> {
  private readonly logger = new Logger('Export');
  private columns?: ExportColumn[];

  constructor(
    private readonly resource: Resource<E>,
    private readonly table: LiveRecordTable<E>,
    private readonly query: ResourceQuery<E>,
    private readonly dataSource: DataSource,
    private readonly config: CrudConfig,
  ) {}

  async run(scope: TenantScope, body: Row & ListControls, accept: string | undefined, res: Response): Promise<void> {
    const format = exportFormatOf(accept);
    const filter = this.query.filter(body);
    const order = this.query.order(body);
    const release = ExportSlots.of(this.dataSource).take(this.config.exportConcurrency);
    if (!release) {
      res.setHeader('Retry-After', String(EXPORT_RETRY_AFTER_SECONDS));
      throw new HttpRefusal(429, exportsBusyText(this.config.exportConcurrency));
    }
    RequestContext.ticket()?.leaveInFlightLimit();
    // stopped when the client goes, or past EXPORT_MAX_SECONDS: a client that reads slowly (or not at all) must not
    // hold a slot, a read view and a connection for ever
    const stopping = new AbortController();
    const stop = stopping.signal;
    let overtime = false;
    const onClose = () => stopping.abort();
    res.once('close', onClose);
    const deadline = setTimeout(() => {
      overtime = true;
      stopping.abort();
    }, this.config.exportMaxSeconds * 1000);
    const output = new ExportOutput(res, stop);
    const started = performance.now();
    let rows = 0;
    const outcome = (what: string) => ({
      export: this.resource.path,
      format: format.name,
      rows,
      bytes: output.bytes,
      ms: Math.round(performance.now() - started),
      outcome: what,
    });
    try {
      await readSnapshot(this.dataSource, async (manager) => {
        const total = await this.query.countIn(scope, filter, manager);
        if (total > this.config.exportMaxRows) throw AppException.validation(tooManyRowsText(total, this.config.exportMaxRows));
        const segment = this.resource.path.split('/').pop()!;
        res.status(200).set({
          'Content-Type': format.contentType,
          'Content-Disposition': `attachment; filename="${exportFileName(segment, format, new Date())}"`,
          'X-Accel-Buffering': 'no',
          'Cache-Control': 'no-store',
        });
        const columns = this.columnsOf();
        const file = rowFileOf(format, output, columns, { sheetColumns: this.resource.exportSheet, sheetName: segment });
        await file.start();
        const batches = keysetBatches(
          () => this.table.select(scope, filter, 'r', manager),
          'r',
          columns.map((c) => c.column),
          order,
          EXPORT_BATCH_ROWS,
          manager,
        );
        for await (const batch of readingAhead(batches)) {
          stop.throwIfAborted();
          rows += batch.length; // handed to the file (the log line of an abandoned export counts them)
          await file.rows(batch);
        }
        await file.end();
      });
      res.end();
      this.logger.log({ ...outcome('completed'), msg: 'export completed' });
    } catch (error) {
      if (!res.headersSent) throw error; // answered in the envelope (400 bound, 503, a client that left before any byte)
      if (overtime)
        this.logger.warn({ ...outcome('cut'), msg: `export cut: it ran longer than EXPORT_MAX_SECONDS (${this.config.exportMaxSeconds})` });
      else if (stop.aborted) this.logger.warn({ ...outcome('abandoned'), msg: 'export abandoned: the client left' });
      else this.logger.error({ ...outcome('failed'), error: (error as Error).message, msg: 'export failed after its first bytes' });
      res.destroy(); // a cut-short file, never one that looks whole
    } finally {
      clearTimeout(deadline);
      res.off('close', onClose);
      release();
    }
  }

  private columnsOf(): ExportColumn[] {
    return (this.columns ??= exportColumnsOf(this.resource, this.dataSource));
  }
}
