import { AppConfig, AppException, LIVE, newId } from '@app/common';
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
export type BindingLifecycleView = Pick<BindingLifecycle, 'dataAcquisitionDeviceNo' | 'dataAcquisitionServerNo' | 'bindTime' | 'unbindTime' | 'state'>;

/**
 * The device calls' view of the registry. Numbers are global, so a lookup by number needs no tenant;
 * every call after the token one works on the record its token was issued for (tenant and id), so a
 * record deleted (or re-registered) since then makes its tokens useless (401).
 */
@Injectable()
export class DeviceRegistry {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  /**
   * The live record of a number with its secret hash (never selected elsewhere): one lookup on the
   * number's unique index. The token call checks the secret against it; every other device call
   * checks its token against it (same record, same secret) and then works on it.
   */
  async credentials(kind: CallerKind, no: string): Promise<Credentials | null> {
    const repository = this.dataSource.getRepository<RegistryRecord>(kind === 'device' ? DataAcquisitionDevice : DataAcquisitionServer);
    // every column, the write-only hash (select: false) included
    const select = Object.fromEntries(repository.metadata.columns.map((column) => [column.propertyName, true]));
    const found = await repository.findOne({ where: { [numberParam(kind)]: no, deleteTime: LIVE } as never, select: select as never });
    if (!found?.secretHash) return null;
    const { secretHash } = found;
    Reflect.deleteProperty(found, 'secretHash'); // the record may become a response: never with the hash
    return { record: found, recordId: recordIdOf(kind, found), secretHash };
  }

  /**
   * Stores the report and its time, and keeps the binding lifecycles in step, in one transaction.
   * The device row is written first: its row lock (MySQL) or the write lock (SQLite) serialises
   * concurrent reports of one device before the open lifecycle is read, so at most one stays open.
   */
  async pushInfo(tenantId: string, deviceId: string, no: string, info: DeviceInfoPush): Promise<true> {
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
      const written = await manager.update(DataAcquisitionDevice, { tenantId, dataAcquisitionDeviceId: deviceId, deleteTime: LIVE }, report);
      if (!written.affected) throw new UnauthorizedException();
      if (serverNo && !(await manager.exists(DataAcquisitionServer, { where: { tenantId, dataAcquisitionServerNo: serverNo, deleteTime: LIVE } })))
        throw AppException.validation(`dataAcquisitionServerNo: no data-acquisition server ${serverNo} is registered in this tenant`);
      await this.rebind(manager, tenantId, no, serverNo, now);
    });
    return true;
  }

  /** Closes the open lifecycle and opens one for the new server when the reported server changed. */
  private async rebind(manager: EntityManager, tenantId: string, deviceNo: string, serverNo: string | null, now: number): Promise<void> {
    const lifecycles = manager.getRepository(BindingLifecycle);
    const open = await lifecycles.findOne({ where: { tenantId, dataAcquisitionDeviceNo: deviceNo, unbindTime: IsNull() } });
    if ((open?.dataAcquisitionServerNo ?? null) === serverNo) return;
    if (open) await lifecycles.update({ tenantId, bindingLifecycleId: open.bindingLifecycleId }, { unbindTime: now, state: 'UNBOUND' });
    if (serverNo)
      await lifecycles.insert({ tenantId, bindingLifecycleId: newId(), dataAcquisitionDeviceNo: deviceNo, dataAcquisitionServerNo: serverNo, bindTime: now, unbindTime: null, state: 'BOUND' });
  }

  /** The binding lifecycles of a server's devices, newest first (at most LIST_LIMIT_MAX). */
  async lifecycles(tenantId: string, serverNo: string): Promise<BindingLifecycleView[]> {
    const rows = await this.dataSource.getRepository(BindingLifecycle).find({
      where: { tenantId, dataAcquisitionServerNo: serverNo },
      order: { bindTime: 'DESC', bindingLifecycleId: 'ASC' },
      take: this.config.listLimitMax,
    });
    return rows.map(({ dataAcquisitionDeviceNo, dataAcquisitionServerNo, bindTime, unbindTime, state }) => ({
      dataAcquisitionDeviceNo,
      dataAcquisitionServerNo,
      bindTime,
      unbindTime,
      state,
    }));
  }

  async updateInternalIp(tenantId: string, serverId: string, internalIp: string): Promise<true> {
    const written = await this.dataSource
      .getRepository(DataAcquisitionServer)
      .update({ tenantId, dataAcquisitionServerId: serverId, deleteTime: LIVE }, { internalIp, internalIpTime: Date.now() });
    if (!written.affected) throw new UnauthorizedException();
    return true;
  }
}
