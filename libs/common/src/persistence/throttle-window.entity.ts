import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis } from './columns';

/**
 * One fixed counting window of a rate limit (WindowCounter). In the database, so every replica counts
 * against the same row.
 */
@Entity('throttle_window')
@Index('idx_throttle_window_end', ['windowEnd'])
export class ThrottleWindow {
  /** `<limit name>:<what is counted>`, e.g. `save-missing:<client address>`. */
  @PrimaryColumn({ type: 'varchar', length: 160 })
  throttleKey: string;

  @Column({ type: 'int' })
  hits: number;

  /** Epoch ms when the window ends; ended rows are swept. */
  @Column({ type: 'bigint', transformer: epochMillis })
  windowEnd: number;
}
