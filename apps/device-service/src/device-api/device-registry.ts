import {
  AllTenantsRead,
  AppException,
  CrudConfig,
  LiveRecordTable,
  message,
  newId,
  TenantFilter,
  TenantScope,
  TenantTable,
} from '@app/common';
import { Injectable, UnauthorizedException } from '@nestjs/common';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { BindingLifecycle } from '../binding/binding-lifecycle.entity';
import { DataAcquisitionDevice } from '../registry/data-acquisition-device/data-acquisition-device.entity';
import { DataAcquisitionServer } from '../registry/data-acquisition-server/data-acquisition-server.entity';
import { DeviceInfoPush } from './device-api.dto';

export type CallerKind = 'device' | 'server';
export type RegistryRecord = DataAcquisitionDevice | DataAcquisitionServer;

/** A live registry record with what proves a caller: its id and the hash of its current secret. */
export interface Credentials {
  /** The record as the API returns it (no secret hash). */
  record: RegistryRecord;
  recordId: string;
  secretHash: string;
}

export const recordIdOf = (kind: CallerKind, record: RegistryRecord): string =>
  kind === 'device' ? (record as DataAcquisitionDevice).dataAcquisitionDeviceId : (record as DataAcquisitionServer).dataAcquisitionServerId;

/** The query parameter carrying the caller's number (contract.md "Devices"). */
export const numberParam = (kind: CallerKind) => (kind === 'device' ? 'dataAcquisitionDeviceNo' : 'dataAcquisitionServerNo');

/** One binding lifecycle as the device group returns it (contract.md "Devices"). */
export type BindingLifecycleView = Pick<
  BindingLifecycle,
  'dataAcquisitionDeviceNo' | 'dataAcquisitionServerNo' | 'bindTime' | 'unbindTime' | 'state'
>;

/** Numbers are unique across tenants: the token checks find a number's record before any tenant is known. */
const NUMBER_LOOKUP = AllTenantsRead.of('device and server numbers looked up for token checks');

/**
 * The device calls' view of the registry. Numbers are global, so a lookup by number needs no tenant;
 * every call after the token one works on the record its token was issued for, in the scope of its
 * tenant (DeviceCaller.scope), so a record deleted (or re-registered) since then makes its tokens useless (401).
 */
@Injectable()
export class DeviceRegistry {
  private readonly devices: LiveRecordTable<DataAcquisitionDevice>;
  private readonly servers: LiveRecordTable<DataAcquisitionServer>;
  private readonly bindings: TenantTable<BindingLifecycle>;
  private readonly selections = new Map<LiveRecordTable<RegistryRecord>, Record<string, true>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: CrudConfig,
  ) {
    this.devices = new LiveRecordTable(DataAcquisitionDevice, 'dataAcquisitionDeviceId', dataSource);
    this.servers = new LiveRecordTable(DataAcquisitionServer, 'dataAcquisitionServerId', dataSource);
    this.bindings = new TenantTable(BindingLifecycle, dataSource);
  }

  /**
   * The live record of a number with its secret hash (never selected elsewhere): one lookup on the
   * number's unique index. The token call checks the secret against it; every other device call
   * checks its token against it (same record, same secret) and then works on it.
   */
  async credentials(kind: CallerKind, no: string): Promise<Credentials | null> {
    const table = (kind === 'device' ? this.devices : this.servers) as unknown as LiveRecordTable<RegistryRecord>;
    const found = await table.findOneInAnyTenant(NUMBER_LOOKUP, { [numberParam(kind)]: no } as TenantFilter<RegistryRecord>, {
      select: this.everyColumn(table) as never,
    });
    if (!found?.secretHash) return null;
    const { secretHash } = found;
    Reflect.deleteProperty(found, 'secretHash'); // the record may become a response: never with the hash
    return { record: found, recordId: recordIdOf(kind, found), secretHash };
  }

  /**
   * Every column a read shows, and the write-only hash (select: false) besides; made once per table. The other
   * columns never selected (the write stamp of BaseRecord) stay out: the record may become a response.
   */
  private everyColumn(table: LiveRecordTable<RegistryRecord>): Record<string, true> {
    let select = this.selections.get(table);
    if (!select) {
      const shown = this.dataSource
        .getMetadata(table.entity)
        .columns.filter((column) => column.isSelect || column.propertyName === 'secretHash');
      select = Object.fromEntries(shown.map((column) => [column.propertyName, true] as const));
      this.selections.set(table, select);
    }
    return select;
  }

  /**
   * Stores the report and its time, and keeps the binding lifecycles in step, in one transaction.
   * The device row is written first: its row lock (MySQL) or the write lock (SQLite) serialises
   * concurrent reports of one device before the open lifecycle is read, so at most one stays open.
   */
  async pushInfo(scope: TenantScope, deviceId: string, no: string, info: DeviceInfoPush): Promise<true> {
    const serverNo = info.dataAcquisitionServerNo ?? null;
    await this.dataSource.transaction(async (manager) => {
      const now = Date.now();
      const report = {
        firmwareVersion: info.firmwareVersion ?? null,
        model: info.model ?? null,
        ipAddress: info.ipAddress ?? null,
        macAddress: info.macAddress ?? null,
        batteryLevel: info.batteryLevel ?? null,
        dataAcquisitionServerNo: serverNo,
        lastSeenTime: now,
      };
      if (!(await this.devices.updateColumns(scope, { dataAcquisitionDeviceId: deviceId }, report, manager)))
        throw new UnauthorizedException();
      if (serverNo && !(await this.servers.exists(scope, { dataAcquisitionServerNo: serverNo }, manager)))
        throw AppException.validation(
          message('dataAcquisitionServerNo: no data-acquisition server {{serverNo}} is registered in this tenant', { serverNo }),
        );
      await this.rebind(manager, scope, no, serverNo, now);
    });
    return true;
  }
  /** Closes the open lifecycle and opens one for the new server when the reported server changed. */
  private async rebind(manager: EntityManager, scope: TenantScope, deviceNo: string, serverNo: string | null, now: number): Promise<void> {
    const open = await this.bindings.findOne(scope, { dataAcquisitionDeviceNo: deviceNo, unbindTime: IsNull() }, { manager });
    if ((open?.dataAcquisitionServerNo ?? null) === serverNo) return;
    if (open)
      await this.bindings.updateColumns(
        scope,
        { bindingLifecycleId: open.bindingLifecycleId },
        { unbindTime: now, state: 'UNBOUND' },
        manager,
      );
    if (serverNo)
      await this.bindings.insertRows(
        scope,
        [
          {
            bindingLifecycleId: newId(),
            dataAcquisitionDeviceNo: deviceNo,
            dataAcquisitionServerNo: serverNo,
            bindTime: now,
            unbindTime: null,
            state: 'BOUND',
          },
        ],
        manager,
      );
  }

  /** The binding lifecycles of a server's devices, newest first (at most LIST_LIMIT_MAX). */
  async lifecycles(scope: TenantScope, serverNo: string): Promise<BindingLifecycleView[]> {
    const rows = await this.bindings.find(
      scope,
      { dataAcquisitionServerNo: serverNo },
      { order: { bindTime: 'DESC', bindingLifecycleId: 'ASC' }, take: this.config.listLimitMax },
    );
    return rows.map(({ dataAcquisitionDeviceNo, dataAcquisitionServerNo, bindTime, unbindTime, state }) => ({
      dataAcquisitionDeviceNo,
      dataAcquisitionServerNo,
      bindTime,
      unbindTime,
      state,
    }));
  }

  async updateInternalIp(scope: TenantScope, serverId: string, internalIp: string): Promise<true> {
    if (!(await this.servers.updateColumns(scope, { dataAcquisitionServerId: serverId }, { internalIp, internalIpTime: Date.now() })))
      throw new UnauthorizedException();
    return true;
  }
}
