/**
 * Fakes only the clock (Date), so a test can step past a window without sleeping and a slow machine cannot
 * step past one by itself; timers and I/O stay real. Undo with jest.useRealTimers().
 */
export function fakeClock(): { advance: (ms: number) => void } {
  jest.useFakeTimers({
    now: Date.now(),
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
  return { advance: (ms) => jest.setSystemTime(Date.now() + ms) };
}
