import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CoalescingLoop } from '../background/coalescing-loop';
import { MessageBus } from './message-bus';

/** How often a replica asks the broker whether it answers (one metadata round trip). */
const PROBE_EVERY_MS = 5000;
/** A ping not answered by then counts as down (kafkajs' own connection retries take longer). */
const PING_TIMEOUT_MS = 2000;

export type BrokerState = 'unknown' | 'up' | 'down';

/**
 * Watches the message broker in the background, so that health details and metrics show its state without
 * waiting on it, and logs each change once. The in-process bus has no broker: always up, never probed.
 */
@Injectable()
export class BrokerMonitor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(BrokerMonitor.name);
  private current: BrokerState;
  private changed = Date.now();
  private readonly loop = new CoalescingLoop(
    () => this.probe(),
    (error) => this.logger.warn(`broker check failed: ${error.name}`),
  );

  constructor(private readonly bus: MessageBus) {
    this.current = bus.remote ? 'unknown' : 'up';
  }

  get state(): BrokerState {
    return this.current;
  }

  /** When the broker's state last changed (epoch ms; start-up until the first answer). */
  get stateSince(): number {
    return this.changed;
  }

  onApplicationBootstrap(): void {
    if (this.bus.remote) this.loop.start(PROBE_EVERY_MS);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  private async probe(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), PING_TIMEOUT_MS)));
    const up = await Promise.race([this.bus.ping(), late]).then(
      () => true,
      () => false,
    );
    clearTimeout(timer);
    if (this.loop.stopped) return; // the bus closes at shutdown: not an outage
    const next: BrokerState = up ? 'up' : 'down';
    if (next === this.current) return;
    if (next === 'down') this.logger.warn('message broker unreachable: imports wait in the outbox until it answers again');
    else if (this.current === 'down') this.logger.log('message broker reachable again');
    this.current = next;
    this.changed = Date.now();
  }
}
