import { epochMillis } from '@app/common';
import { ApiProperty } from '@nestjs/swagger';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { EXAMPLE_NUMBER } from '../registry/registry-examples';

export const BINDING_STATES = ['BOUND', 'UNBOUND'] as const;
export type BindingState = (typeof BINDING_STATES)[number];

/**
 * One period during which a device reported the same server: opened when a device first reports a
 * server (BOUND, unbindTime null), closed when it reports another one or none (UNBOUND).
 * Written only by pushInfo; the tenant is the device's.
 */
@Entity('device_binding_lifecycle')
@Index('idx_binding_lifecycle_server', ['tenantId', 'dataAcquisitionServerNo', 'bindTime'])
@Index('idx_binding_lifecycle_device', ['tenantId', 'dataAcquisitionDeviceNo', 'unbindTime'])
export class BindingLifecycle {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  bindingLifecycleId: string;

  @ApiProperty({ example: EXAMPLE_NUMBER.device })
  @Column({ type: 'varchar', length: 64 })
  dataAcquisitionDeviceNo: string;

  @ApiProperty({ example: EXAMPLE_NUMBER.server })
  @Column({ type: 'varchar', length: 64 })
  dataAcquisitionServerNo: string;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    example: 1763800000000,
    description: 'Epoch milliseconds of the first report naming this server',
  })
  @Column({ type: 'bigint', transformer: epochMillis })
  bindTime: number;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    nullable: true,
    example: null,
    description: 'Epoch milliseconds of the report that named another server or none; null while bound',
  })
  @Column({ type: 'bigint', nullable: true, transformer: epochMillis })
  unbindTime: number | null;

  @ApiProperty({ enum: BINDING_STATES, example: 'BOUND' })
  @Column({ type: 'varchar', length: 16 })
  state: BindingState;
}
