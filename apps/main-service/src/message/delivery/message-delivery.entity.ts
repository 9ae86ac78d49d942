import { epochMillis } from '@app/common';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The channels the dispatcher sends: the message tables it reads. */
export type DeliveryChannel = 'email' | 'sms';

/**
 * The dispatcher's bookkeeping for one e-mail or SMS being delivered: when it may be tried next and which
 * replica holds it until when. A row exists only while its message is in delivery (claimed or backing off)
 * and is deleted with the outcome; the message rows themselves keep status, retryCount and errorMessage.
 * A replica that dies holding a claim leaves `claimedUntil` behind, after which another replica takes it.
 */
@Entity('message_delivery')
@Index('idx_message_delivery_claimed_by', ['claimedBy'])
// the claims in force per tenant (the per-tenant cap); released and backing-off rows have claimedUntil 0
@Index('idx_message_delivery_claimed_until', ['claimedUntil', 'tenantId'])
export class MessageDelivery {
  @PrimaryColumn({ type: 'varchar', length: 16 })
  channel: DeliveryChannel;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  tenantId: string;

  /** emailId or smsId. */
  @PrimaryColumn({ type: 'varchar', length: 32 })
  messageId: string;

  /** Not before this time (epoch ms): the backoff after a failed attempt. */
  @Column({ type: 'bigint', transformer: epochMillis })
  nextAttemptTime: number;

  /** The replica sending it, while `claimedUntil` is in the future. */
  @Column({ type: 'varchar', length: 128, nullable: true })
  claimedBy: string | null;

  @Column({ type: 'bigint', transformer: epochMillis })
  claimedUntil: number;
}
