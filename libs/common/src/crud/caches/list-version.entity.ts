import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * How often a resource's records of one tenant were written (every write of every resource counts).
 * Every replica compares it with the version its cached list was loaded at (docs/operations.md "Scaling out").
 */
@Entity('list_version')
export class ListVersion {
  @PrimaryColumn({ type: 'varchar', length: 128 })
  resourcePath: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  tenantId: string;

  /** BIGINT: mysql2 returns it as a string, which is all a comparison needs. */
  @Column({ type: 'bigint' })
  version: string;
}
