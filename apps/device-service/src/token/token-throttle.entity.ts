import { epochMillis } from '@app/common';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One counting window of the token calls: per client address (every call counts) or per number
 * (failed secrets count). In the database, so every replica counts against the same row.
 */
@Entity('device_token_throttle')
@Index('idx_token_throttle_window_end', ['windowEnd'])
export class TokenThrottleWindow {
  /** `address:<client address>` or `<kind>:<number>`. */
  @PrimaryColumn({ type: 'varchar', length: 128 })
  throttleKey: string;

  @Column({ type: 'int' })
  hits: number;

  /** Epoch ms when the window (and a lockout within it) ends; expired rows are swept. */
  @Column({ type: 'bigint', transformer: epochMillis })
  windowEnd: number;
}
