import { Logger } from '@nestjs/common';
import { DataSource, LessThanOrEqual } from 'typeorm';
import { IMPORT_REJECTIONS_KEPT, ImportRejection } from './import-rejection.entity';

/** Log lines about rejected messages per minute; the rest are counted and summarised (a flood must not flood the logs). */
const LOG_LINES_PER_MINUTE = 20;

/** What an import message claimed, as far as it could be read: untrusted, stored only as evidence. */
export interface ClaimedImport {
  batchId?: unknown;
  tenantId?: unknown;
}

const clip = (value: unknown, length: number): string | null => (typeof value === 'string' ? value.slice(0, length) : null);
/** Only id-like characters reach a log line: the values come from whoever produced the message. */
const loggable = (value: unknown): string => (typeof value === 'string' ? value.slice(0, 64).replace(/[^\w.@-]/g, '?') : '-');

/**
 * Records import messages the consumer refused (import_rejection, newest IMPORT_REJECTIONS_KEPT rows)
 * and logs them at a bounded rate. Recording is evidence only: it never fails the delivery.
 */
export class ImportRejectionLog {
  private readonly logger = new Logger('ImportRejections');
  private windowStart = 0;
  private logged = 0;
  private suppressed = 0;

  constructor(private readonly dataSource: DataSource) {}

  async record(topic: string, messageKey: string, claimed: ClaimedImport, reason: string): Promise<void> {
    this.log(
      `rejected an import message on ${topic} (batch ${loggable(claimed.batchId)}, tenant ${loggable(claimed.tenantId)}, key ${loggable(messageKey)}): ${reason}`,
    );
    try {
      const repo = this.dataSource.getRepository(ImportRejection);
      const { identifiers } = await repo.insert({
        topic,
        messageKey: messageKey.slice(0, 64),
        claimedBatchId: clip(claimed.batchId, 64),
        claimedTenantId: clip(claimed.tenantId, 64),
        reason: reason.slice(0, 255),
        receivedTime: Date.now(),
      });
      const id = Number(identifiers[0]?.id);
      // keeps the table bounded: one range delete on the primary key
      if (id > IMPORT_REJECTIONS_KEPT) await repo.delete({ id: LessThanOrEqual(id - IMPORT_REJECTIONS_KEPT) });
    } catch (error) {
      this.logger.warn(`could not record a rejected import message (${(error as Error).name})`);
    }
  }

  private log(line: string): void {
    const now = Date.now();
    if (now - this.windowStart >= 60_000) {
      if (this.suppressed) this.logger.warn(`${this.suppressed} more rejected import message(s) in the last minute (see import_rejection)`);
      this.windowStart = now;
      this.logged = 0;
      this.suppressed = 0;
    }
    if (this.logged++ < LOG_LINES_PER_MINUTE) this.logger.warn(line);
    else this.suppressed++;
  }
}
