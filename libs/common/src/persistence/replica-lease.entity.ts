import { Column, Entity, PrimaryColumn } from 'typeorm';
import { epochMillis } from './columns';

/** The columns of a lease table (Lease): one row per piece of work, held by one replica until it expires. */
export abstract class LeaseRecord {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'varchar', length: 128 })
  holder: string;

  @Column({ type: 'bigint', transformer: epochMillis })
  expiresTime: number;
}

/** Who may do a piece of background work right now, among the replicas sharing a database (retention passes). */
@Entity('replica_lease')
export class ReplicaLease extends LeaseRecord {}
