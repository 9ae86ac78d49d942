import { BaseRecord, epochMillis } from '@app/common';
import { ApiProperty } from '@nestjs/swagger';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A registered data-acquisition server. Its number is unique across all tenants (a device or server
 * proves itself with the number alone), so the unique index leaves the tenant out.
 */
@Entity('device_data_acquisition_server')
@Index('uk_data_acquisition_server_no', ['dataAcquisitionServerNo', 'deleteTime'], { unique: true })
@Index('idx_data_acquisition_server_created', ['tenantId', 'deleteTime', 'createdTime'])
export class DataAcquisitionServer extends BaseRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  dataAcquisitionServerId: string;

  @ApiProperty({ example: 'DAS-0001', description: 'Globally unique server number' })
  @Column({ type: 'varchar', length: 64 })
  dataAcquisitionServerNo: string;

  @ApiProperty({ type: String, nullable: true, example: 'Plant 1, hall B' })
  @Column({ type: 'varchar', length: 255, nullable: true })
  name: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Rack 4' })
  @Column({ type: 'varchar', length: 500, nullable: true })
  remark: string | null;

  @ApiProperty({ type: String, nullable: true, example: '10.0.4.17', description: 'Reported by the server (updateInternalIpByDataAcquisitionServerNo)' })
  @Column({ type: 'varchar', length: 45, nullable: true })
  internalIp: string | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 1763800000000, description: 'Epoch milliseconds of the last internal IP report' })
  @Column({ type: 'bigint', nullable: true, transformer: epochMillis })
  internalIpTime: number | null;

  /** Salted scrypt hash of the provisioning secret: never selected, never documented. */
  @Column({ type: 'varchar', length: 255, select: false })
  secretHash: string;
}

