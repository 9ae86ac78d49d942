import { Entity } from 'typeorm';
import { LeaseRecord } from '../persistence/replica-lease.entity';

/**
 * Who may relay the outbox right now. One row per relay name; a replica relays only while it holds
 * the unexpired lease, so no two replicas publish the same row at once and each key's order is kept.
 */
@Entity('outbox_lease')
export class OutboxLease extends LeaseRecord {}
