import { Column, Entity, PrimaryColumn } from 'typeorm';
import { epochMillis } from './columns';

/**
 * Who may do a piece of background work right now, among the replicas sharing a database (Lease):
 * one row per piece of work, held by one replica until it expires.
 */
@Entity('replica_lease')
export class ReplicaLease {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'varchar', length: 128 })
  holder: string;

  @Column({ type: 'bigint', transformer: epochMillis })
  expiresTime: number;
}
