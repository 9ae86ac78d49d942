import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { setTimeout as sleep } from 'node:timers/promises';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { CoalescingLoop } from '../background/coalescing-loop';
import { Lease } from '../background/lease';
import { SharedRun } from '../background/shared-run';
import { RetentionConfig } from '../config/retention.config';
import type { AnyResource } from '../crud/fields/resource';
import { CrudService } from '../crud/service/crud.service';
import { exclusiveTransaction } from '../crud/tables/exclusive-transaction';
import { retryingConflicts } from '../persistence/conflict-retry';
import { Metrics } from '../metrics/metrics';
import { TenantScope } from '../tenancy/tenant-scope';
import { AgeRetention } from './age-retention';
import { removeBatch } from './remove-batch';
import { OldHistory } from './old-history';
import { HISTORY_TABLE } from '../persistence/history-sql';
import { DueSelection, planRemovals, RemovalReason, TablePlan } from './retention-plan';

/** Beyond a pass's time bound: covers the statement in hand when the bound is reached. */
const LEASE_MARGIN_MS = 60_000;
const SYSTEM_USER = 'retention';

/** What one pass did (run() answers it; tests and logs read it). */
export interface RetentionPass {
  /** False when nothing is configured to be removed, or another replica holds the lease. */
  ran: boolean;
  /** Rows removed, per table. */
  removed: Record<string, number>;
  /** DELETE statements run, and the most rows one of them removed. */
  batches: number;
  largestBatch: number;
  /** False when the time bound (or shutdown) ended the pass with rows possibly still due. */
  complete: boolean;
}

/** Where a pass cut short by its time bound stopped: the next one starts there, so no table waits behind another's backlog. */
interface Cursor {
  table: number;
  /** The last tenant of that table whose rows were done. */
  after?: string;
}

/**
 * Removes, in the background, what operators chose not to keep (docs/operations.md "Retention"): logically
 * deleted records after PURGE_DELETED_AFTER_DAYS, and the records of resources an app retains by age
 * (AgeRetention) once their main time field is older than their period, and history entries older than
 * HISTORY_RETENTION_DAYS. One replica at a time (a lease
 * in the database), every RETENTION_INTERVAL_SECONDS, in DELETEs of at most RETENTION_BATCH_ROWS rows by
 * primary key with a pause between them, for at most RETENTION_PASS_SECONDS a pass. Every DELETE raises the
 * write version of the (table, tenant) it touched, as any write does (the table's triggers), so cached lists
 * and page totals of every replica stop showing the rows.
 */
@Injectable()
export class RetentionJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(RetentionJob.name);
  private readonly lease: Lease;
  private readonly removedRows: Counter<'table' | 'reason'>;
  private readonly passes = new SharedRun(() => this.pass());
  private readonly loop = new CoalescingLoop(
    () => this.passes.run().then(() => undefined),
    (error) => this.logger.warn(`retention pass failed (the next one tries again): ${error.name}`),
  );
  private resources: AnyResource[] = [];
  private ageRules: AgeRetention[] = [];
  private cursor: Cursor = { table: 0 };

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: RetentionConfig,
    private readonly discovery: DiscoveryService,
    metrics: Metrics,
  ) {
    this.lease = new Lease(dataSource, 'retention');
    this.removedRows = new Counter({
      name: 'retention_removed_rows_total',
      help: 'Rows the retention passes removed, by table and reason (deleted: logically deleted long enough; expired: older than the resource keeps)',
      labelNames: ['table', 'reason'],
      registers: [metrics.registry],
    });
  }

  /** Finds the app's resources and age rules; starts the passes when anything is to be removed. */
  onApplicationBootstrap(): void {
    const instances = this.discovery.getProviders().map((wrapper) => wrapper.instance as unknown);
    const byPath = new Map<string, AnyResource>();
    for (const instance of instances) if (instance instanceof CrudService) byPath.set(instance.resource.path, instance.resource);
    this.resources = [...byPath.values()];
    this.ageRules = instances.filter((instance): instance is AgeRetention => instance instanceof AgeRetention);
    // the first pass after an interval: a replica starting (a deployment, a scale-out) adds no work while it warms up
    if (this.configured()) this.loop.start(this.config.intervalMs, false);
  }

  /** Before the data source closes: the pass in hand stops after its statement, and the lease goes to another replica. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    await this.lease.release().catch(() => undefined);
  }

  /** A pass that starts after this call (the one under way may have begun before what the caller wants removed). */
  run(): Promise<RetentionPass> {
    return this.passes.run();
  }

  private configured(): boolean {
    return (
      this.config.purgeDeletedAfterDays !== undefined ||
      this.ageRules.some((rule) => rule.days !== undefined) ||
      this.oldHistory() !== undefined
    );
  }

  /** The history entries due, when HISTORY_RETENTION_DAYS is set and the service keeps history. */
  private oldHistory(): OldHistory | undefined {
    const days = this.config.historyRetentionDays;
    return days !== undefined && OldHistory.kept(this.dataSource) ? new OldHistory(this.dataSource, days) : undefined;
  }

  private async pass(): Promise<RetentionPass> {
    const started = Date.now();
    const report: RetentionPass = { ran: false, removed: {}, batches: 0, largestBatch: 0, complete: true };
    const plans = planRemovals(this.dataSource, this.resources, this.config.purgeDeletedAfterDays, this.ageRules, started);
    const history = this.oldHistory();
    if ((!plans.length && !history) || !(await this.holdLease())) return report;
    report.ran = true;
    const deadline = started + this.config.passMs;
    report.complete = await this.removeDue(plans, deadline, report);
    // after the records: a purge above writes entries of its own, which the period keeps like any other
    if (report.complete && history) report.complete = await this.removeOldHistory(history, started, deadline, report);
    // the next pass is due in an interval: until then the other replicas leave it to this one
    await this.lease.claim(Date.now() + this.config.intervalMs);
    const total = Object.values(report.removed).reduce((sum, n) => sum + n, 0);
    if (total > 0) {
      const tables = Object.entries(report.removed).map(([table, n]) => `${table}: ${n}`);
      const more = report.complete ? '' : '; more may be due (time bound reached, the next pass goes on)';
      this.logger.log(
        `retention removed ${total} rows in ${report.batches} batches, ${Date.now() - started} ms (${tables.join(', ')})${more}`,
      );
    }
    return report;
  }

  /** Takes or renews the lease for the rest of a pass. */
  private holdLease(): Promise<boolean> {
    return this.lease.claim(Date.now() + this.config.passMs + LEASE_MARGIN_MS);
  }

  /** Every table from the cursor on, each tenant in turn; false when the time bound or shutdown ended it early. */
  private async removeDue(plans: TablePlan[], deadline: number, report: RetentionPass): Promise<boolean> {
    const first = this.cursor.table < plans.length ? this.cursor.table : 0;
    for (let step = 0; step < plans.length; step++) {
      const index = (first + step) % plans.length;
      const plan = plans[index];
      let after = step === 0 ? this.cursor.after : undefined;
      for (let tenant = await plan.tenants.after(after); tenant !== undefined; tenant = await plan.tenants.after(after)) {
        if (!(await this.removeTenantRows(plan, tenant, deadline, report))) {
          this.cursor = { table: index, after };
          return false;
        }
        after = tenant;
      }
    }
    this.cursor = { table: 0 };
    return true;
  }

  /** One tenant's due rows of a table, batch by batch; false when the pass must end first. */
  private async removeTenantRows(plan: TablePlan, tenantId: string, deadline: number, report: RetentionPass): Promise<boolean> {
    const scope = TenantScope.system('retention', tenantId, SYSTEM_USER);
    for (const selection of plan.selections) {
      for (;;) {
        if (this.loop.stopped || Date.now() >= deadline) return false;
        const ids = await selection.rows.someIds(scope, this.config.batchRows);
        if (!ids.length) break;
        const removed = await this.removeRecorded(selection, scope, ids);
        this.count(plan.table, selection.reason, removed, report);
        if (!(await this.holdLease())) return false; // another replica took over (this one was stalled past the lease)
        await sleep(this.config.batchPauseMs);
        if (ids.length < this.config.batchRows) break; // that was the last of them
      }
    }
    return true;
  }

  /** History entries older than the period, batch by batch as records are; false when the pass must end first. */
  private async removeOldHistory(history: OldHistory, now: number, deadline: number, report: RetentionPass): Promise<boolean> {
    for (;;) {
      if (this.loop.stopped || Date.now() >= deadline) return false;
      const ids = await history.someIds(now, this.config.batchRows);
      if (!ids.length) return true;
      this.count(HISTORY_TABLE, 'expired', await history.remove(ids), report);
      if (!(await this.holdLease())) return false;
      await sleep(this.config.batchPauseMs);
      if (ids.length < this.config.batchRows) return true;
    }
  }

  /**
   * One batch of a tenant's rows; the table's triggers raise that tenant's write version in the same transaction. It is
   * run again whole when it lost a race with a request's write (on Galera, one committed on another node).
   */
  private removeRecorded(selection: DueSelection, scope: TenantScope, ids: string[]): Promise<number> {
    return retryingConflicts(() => exclusiveTransaction(this.dataSource, (manager) => removeBatch(manager, selection.rows, scope, ids)));
  }

  private count(table: string, reason: RemovalReason, removed: number, report: RetentionPass): void {
    report.batches++;
    report.largestBatch = Math.max(report.largestBatch, removed);
    report.removed[table] = (report.removed[table] ?? 0) + removed;
    if (removed > 0) this.removedRows.inc({ table, reason }, removed);
  }
}
