import { LiveRecordTable, TenantScope, writeStamp } from '@app/common';
import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, MoreThan, MoreThanOrEqual, Or, Raw } from 'typeorm';
import { SmsPackage } from '../sms-package/sms-package.entity';
import { DeliveryFailure } from './delivery-failure';

/** Units taken from one package, to give back if the send fails. */
export interface TakenUnits {
  smsPackageId: string;
  units: number;
}

/** Enough for any number of racing replicas to settle: each lost race means another replica took units. */
const MAX_ROUNDS = 20;

/**
 * SMS package units of one tenant: each number sent uses one unit of an ACTIVE, unexpired package (the one
 * expiring first, then the oldest). Units are taken by conditional UPDATEs (`used_count + n` only while
 * `n` are left), atomic on both engines; a package used up becomes EXHAUSTED.
 */
@Injectable()
export class SmsPackageUnits {
  private readonly packages: LiveRecordTable<SmsPackage>;

  constructor(dataSource: DataSource) {
    this.packages = new LiveRecordTable(SmsPackage, 'smsPackageId', dataSource);
  }

  /** Takes `units` units, possibly from several packages; none taken and a permanent failure when too few are left. */
  async take(scope: TenantScope, units: number): Promise<TakenUnits[]> {
    const taken: TakenUnits[] = [];
    let remaining = units;
    for (let round = 0; remaining > 0; round++) {
      if (round >= MAX_ROUNDS) {
        await this.giveBack(scope, taken);
        throw new DeliveryFailure('SMS packages busy');
      }
      const usable = await this.usable(scope);
      if (usable.reduce((sum, p) => sum + p.totalCount - p.usedCount, 0) < remaining) {
        await this.giveBack(scope, taken);
        throw new DeliveryFailure('no SMS package', true);
      }
      const pkg = usable[0];
      const n = Math.min(remaining, pkg.totalCount - pkg.usedCount);
      if (await this.takeFrom(scope, pkg.smsPackageId, n)) {
        taken.push({ smsPackageId: pkg.smsPackageId, units: n });
        remaining -= n;
      }
    }
    return taken;
  }

  /** Returns units of a send that failed (an EXHAUSTED package they make usable again is ACTIVE again). */
  async giveBack(scope: TenantScope, taken: TakenUnits[]): Promise<void> {
    for (const { smsPackageId, units } of taken) {
      await this.packages.updateColumns(scope, { smsPackageId, usedCount: MoreThanOrEqual(units) }, {
        usedCount: () => `used_count - ${Number(units)}`,
        status: () => `CASE WHEN status = 'EXHAUSTED' THEN 'ACTIVE' ELSE status END`,
        revision: () => 'revision + 1',
        lastModifiedTime: Date.now(),
        ...writeStamp(scope),
      } as never);
    }
  }

  private async usable(scope: TenantScope): Promise<SmsPackage[]> {
    const now = Date.now();
    const packages = await this.packages
      .select(scope, { status: 'ACTIVE' }, 'p')
      .andWhere('(p.expireTime IS NULL OR p.expireTime > :now)', { now })
      .andWhere('p.usedCount < p.totalCount')
      .getMany();
    const expiry = (p: SmsPackage) => p.expireTime ?? Number.MAX_SAFE_INTEGER;
    return packages.sort((a, b) => expiry(a) - expiry(b) || a.createdTime - b.createdTime);
  }

  /** One atomic step: `n` units of one package if it still has them; EXHAUSTED once that used it up. */
  private async takeFrom(scope: TenantScope, smsPackageId: string, n: number): Promise<boolean> {
    const now = Date.now();
    const taken = await this.packages.updateColumns(
      scope,
      {
        smsPackageId,
        status: 'ACTIVE',
        usedCount: Raw((used) => `total_count - ${used} >= :n`, { n }),
        expireTime: Or(IsNull(), MoreThan(now)),
      },
      {
        usedCount: () => `used_count + ${Number(n)}`,
        revision: () => 'revision + 1',
        lastModifiedTime: now,
        ...writeStamp(scope),
      } as never,
    );
    if (!taken) return false;
    // a second statement: MySQL's SET sees the already incremented used_count, SQLite's the old one
    await this.packages.updateColumns(scope, { smsPackageId, status: 'ACTIVE', usedCount: Raw((used) => `${used} >= total_count`) }, {
      status: 'EXHAUSTED',
      ...writeStamp(scope),
    } as never);
    return true;
  }
}
