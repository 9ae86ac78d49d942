import pino from 'pino';
import { isoTime } from './iso-time';

describe('isoTime (the cached log timestamp)', () => {
  afterEach(() => jest.restoreAllMocks());

  it("is pino's isoTime text for the same instant, within a millisecond and across one", () => {
    const now = jest.spyOn(Date, 'now');
    for (const instant of [
      0, 1_764_352_800_000, 1_764_352_800_000, 1_764_352_800_001, 1_764_352_800_009, 1_764_352_800_010, 1_764_352_800_099,
      1_764_352_800_100, 1_764_352_800_999, 1_764_352_801_000, 1_764_352_801_042, 1_764_352_800_500, 253_402_300_799_999,
      253_402_300_800_000, 253_402_300_800_001, -1, -1_000, -62_198_755_200_001,
    ]) {
      now.mockReturnValue(instant);
      expect(isoTime()).toBe(pino.stdTimeFunctions.isoTime());
    }
  });

  it('moves with the clock, also backwards (a fake clock in a test)', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(Date.UTC(2026, 0, 1, 12));
    expect(isoTime()).toBe(',"time":"2026-01-01T12:00:00.000Z"');
    now.mockReturnValue(Date.UTC(2025, 11, 31, 23, 59, 59, 999));
    expect(isoTime()).toBe(',"time":"2025-12-31T23:59:59.999Z"');
  });

  it('formats a date once per second, the milliseconds of that second without formatting a date', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(Date.UTC(2026, 5, 1));
    const format = jest.spyOn(Date.prototype, 'toISOString');
    isoTime();
    isoTime();
    now.mockReturnValue(Date.UTC(2026, 5, 1, 0, 0, 0, 7));
    expect(isoTime()).toBe(',"time":"2026-06-01T00:00:00.007Z"');
    expect(format).toHaveBeenCalledTimes(1);
    now.mockReturnValue(Date.UTC(2026, 5, 1, 0, 0, 1, 0));
    expect(isoTime()).toBe(',"time":"2026-06-01T00:00:01.000Z"');
    expect(format).toHaveBeenCalledTimes(2);
  });
});
