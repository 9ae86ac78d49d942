import { Logger } from '@nestjs/common';
import { BrokerMonitor } from './broker-monitor';
import { InProcessMessageBus, MessageBus } from './message-bus';

/** A broker that answers, refuses or never answers, as the test says. */
class FakeBrokerBus extends MessageBus {
  readonly transport = 'kafka';
  readonly remote = true;
  answer: 'up' | 'refuse' | 'hang' = 'refuse';
  pings = 0;
  async publish(): Promise<void> {}
  async subscribe(): Promise<void> {}
  async close(): Promise<void> {}
  ping(): Promise<void> {
    this.pings++;
    if (this.answer === 'up') return Promise.resolve();
    if (this.answer === 'refuse') return Promise.reject(new Error('ECONNREFUSED'));
    return new Promise(() => undefined);
  }
}

describe('BrokerMonitor', () => {
  let warn: jest.SpyInstance;
  let log: jest.SpyInstance;
  beforeEach(() => {
    jest.useFakeTimers();
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('checks the broker every 5 s in the background: unknown, then down, up again, and down when a check is not answered in 2 s', async () => {
    const bus = new FakeBrokerBus();
    const monitor = new BrokerMonitor(bus);
    expect(monitor.state).toBe('unknown');
    monitor.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(0);
    expect(monitor.state).toBe('down');
    const downSince = monitor.stateSince;

    bus.answer = 'up';
    await jest.advanceTimersByTimeAsync(4999);
    expect(monitor.state).toBe('down');
    await jest.advanceTimersByTimeAsync(1);
    expect(monitor.state).toBe('up');
    expect(monitor.stateSince).toBeGreaterThan(downSince);

    bus.answer = 'hang';
    await jest.advanceTimersByTimeAsync(5000 + 1999);
    expect(monitor.state).toBe('up');
    await jest.advanceTimersByTimeAsync(1);
    expect(monitor.state).toBe('down');
    await jest.advanceTimersByTimeAsync(20_000);
    // each change logged once, not each failed check
    expect(warn.mock.calls).toEqual([[expect.stringContaining('unreachable')], [expect.stringContaining('unreachable')]]);
    expect(log.mock.calls).toEqual([[expect.stringContaining('reachable again')]]);
    await monitor.beforeApplicationShutdown();
  });

  it('never checks the in-process bus: it has no broker, and is up', async () => {
    const bus = new InProcessMessageBus();
    const ping = jest.spyOn(bus, 'ping');
    const monitor = new BrokerMonitor(bus);
    monitor.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(20_000);
    expect(monitor.state).toBe('up');
    expect(ping).not.toHaveBeenCalled();
    await monitor.beforeApplicationShutdown();
  });
});
