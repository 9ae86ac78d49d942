import { BaseRecord, epochMillis } from '@app/common';
import { ApiProperty } from '@nestjs/swagger';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A registered data-acquisition device: the operator's fields (number, name, remark, secret) and
 * what the device last reported through pushInfo (written only by the device itself).
 * The number is unique across all tenants, so the unique index leaves the tenant out.
 */
@Entity('device_data_acquisition_device')
@Index('uk_data_acquisition_device_no', ['dataAcquisitionDeviceNo', 'deleteTime'], { unique: true })
@Index('idx_data_acquisition_device_created', ['tenantId', 'deleteTime', 'createdTime'])
export class DataAcquisitionDevice extends BaseRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  dataAcquisitionDeviceId: string;

  @ApiProperty({ example: 'DAD-0001', description: 'Globally unique device number' })
  @Column({ type: 'varchar', length: 64 })
  dataAcquisitionDeviceNo: string;

  @ApiProperty({ type: String, nullable: true, example: 'Gate scanner 3' })
  @Column({ type: 'varchar', length: 255, nullable: true })
  name: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Replaced battery 2026-03' })
  @Column({ type: 'varchar', length: 500, nullable: true })
  remark: string | null;

  @ApiProperty({ type: String, nullable: true, example: '2.4.1', description: 'Reported by the device' })
  @Column({ type: 'varchar', length: 64, nullable: true })
  firmwareVersion: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'DA-200', description: 'Reported by the device' })
  @Column({ type: 'varchar', length: 64, nullable: true })
  model: string | null;

  @ApiProperty({ type: String, nullable: true, example: '192.168.1.23', description: 'Reported by the device (IPv4 or IPv6)' })
  @Column({ type: 'varchar', length: 45, nullable: true })
  ipAddress: string | null;

  @ApiProperty({ type: String, nullable: true, example: '00:1A:2B:3C:4D:5E', description: 'Reported by the device' })
  @Column({ type: 'varchar', length: 17, nullable: true })
  macAddress: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'DAS-0001', description: 'The server the device last reported being bound to' })
  @Column({ type: 'varchar', length: 64, nullable: true })
  dataAcquisitionServerNo: string | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 87, description: 'Battery level in percent, reported by the device' })
  @Column({ type: 'int', nullable: true })
  batteryLevel: number | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 1763800000000, description: 'Epoch milliseconds of the last pushInfo' })
  @Column({ type: 'bigint', nullable: true, transformer: epochMillis })
  lastSeenTime: number | null;

  /** Salted scrypt hash of the provisioning secret: never selected, never documented. */
  @Column({ type: 'varchar', length: 255, select: false })
  secretHash: string;
}
