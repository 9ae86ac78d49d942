import { withinDeadline } from './attempt-deadline';
import { DeliveryFailure } from './delivery-failure';

describe('withinDeadline', () => {
  it('an attempt that ends in time: its value, or its own failure; the signal never aborts', async () => {
    let seen: AbortSignal | undefined;
    expect(await withinDeadline(1000, async (signal) => ((seen = signal), 'id-1'))).toBe('id-1');
    expect(seen!.aborted).toBe(false);
    const refused = DeliveryFailure.of('REJECTED', 'SMTP 550');
    await expect(withinDeadline(1000, () => Promise.reject(refused))).rejects.toBe(refused);
  });

  it('an attempt that never ends: the signal aborts at the deadline and the attempt fails as TIMEOUT, without waiting for it', async () => {
    let seen: AbortSignal | undefined;
    const failure = await withinDeadline(30, (signal) => ((seen = signal), new Promise<never>(() => undefined))).catch((e: unknown) => e);
    expect(failure).toEqual(DeliveryFailure.of('TIMEOUT'));
    expect((failure as DeliveryFailure).unreachable).toBe(true);
    expect(seen!.aborted).toBe(true);
  });

  it("what the attempt reports once aborted (an abort error, a destroyed socket) is the deadline's TIMEOUT", async () => {
    const attempt = (signal: AbortSignal) =>
      new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(DeliveryFailure.of('CONNECT', 'ECONNRESET'))));
    await expect(withinDeadline(30, attempt)).rejects.toEqual(DeliveryFailure.of('TIMEOUT'));
  });
});
