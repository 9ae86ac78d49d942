import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { RequestContext } from '../tenancy/request-context';

/** A name for this process among the replicas sharing a database (leases and claims carry it). */
export const replicaName = (): string => `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

/**
 * Background work done in passes: on a timer, and at once when kicked. A kick during a pass is remembered
 * and runs one more pass right after it (however many kicks came), so passes never overlap and no kick
 * is lost. `stop` ends the timer, refuses new passes and waits for the pass in hand; a pass that loops
 * reads `stopped` to end early.
 */
export class CoalescingLoop {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private halted = false;

  constructor(
    private readonly pass: () => Promise<void>,
    /** A pass that throws: reported here, and the next kick or tick tries again. */
    private readonly onFailure: (error: Error) => void,
  ) {}

  get stopped(): boolean {
    return this.halted;
  }

  /** Runs a pass every `everyMs`, the first one now unless `firstNow` is false (the timer does not keep the process alive). */
  start(everyMs: number, firstNow = true): void {
    this.timer = setInterval(() => this.kick(), everyMs);
    this.timer.unref();
    if (firstNow) this.kick();
  }

  /** Starts a pass now (or right after the current one). */
  kick(): void {
    if (this.halted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    // a kick from a request starts work of its own: its statements are not the request's (they may outlast it)
    this.running = RequestContext.outside(() => this.pass())
      .catch((error: Error) => this.onFailure(error))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  async stop(): Promise<void> {
    this.halted = true;
    clearInterval(this.timer);
    // a pass that ends while stopping may start none after it (kick refuses), so one wait is enough
    await this.running;
  }
}
