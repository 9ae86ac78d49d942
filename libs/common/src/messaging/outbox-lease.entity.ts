import { Column, Entity, PrimaryColumn } from 'typeorm';
import { epochMillis } from '../persistence/columns';

/**
 * Who may relay the outbox right now. One row per relay name; a replica relays only while it holds
 * the unexpired lease, so no two replicas publish the same row at once and each key's order is kept.
 */
@Entity('outbox_lease')
export class OutboxLease {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'varchar', length: 128 })
  holder: string;

  @Column({ type: 'bigint', transformer: epochMillis })
  expiresTime: number;
}
