/**
 * The page-total cache of a replica (page-totals.ts): a count is reused only for its resource, tenant,
 * filter and write version within its TTL, and the entries are bounded; and the totals a page's rows show
 * without a count.
 */
import { PageTotals, totalShownByRows } from './page-totals';

/** A count answering the given totals in turn. */
const counter = (totals: number[]) => jest.fn(() => Promise.resolve(totals.shift() ?? -1));

describe('PageTotals', () => {
  afterEach(() => jest.useRealTimers());

  it('reuses a count only for the same resource, tenant, filter and version', async () => {
    const totals = new PageTotals();
    const count = counter([5, 6, 7, 8, 9]);
    expect(await totals.getOrCount('res', 't1', 'f', 'v1', 1000, count)).toBe(5);
    expect(await totals.getOrCount('res', 't1', 'f', 'v1', 1000, count)).toBe(5);
    expect(await totals.getOrCount('res', 't2', 'f', 'v1', 1000, count)).toBe(6);
    expect(await totals.getOrCount('res', 't1', 'g', 'v1', 1000, count)).toBe(7);
    expect(await totals.getOrCount('other', 't1', 'f', 'v1', 1000, count)).toBe(8);
    expect(await totals.getOrCount('res', 't1', 'f', 'v2', 1000, count)).toBe(9);
    expect(count).toHaveBeenCalledTimes(5);
  });

  it('counts again once the TTL has passed since the count started', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const totals = new PageTotals();
    const count = counter([1, 2]);
    expect(await totals.getOrCount('res', 't', 'f', 'v', 2000, count)).toBe(1);
    jest.setSystemTime(1_001_999);
    expect(await totals.getOrCount('res', 't', 'f', 'v', 2000, count)).toBe(1);
    jest.setSystemTime(1_002_000);
    expect(await totals.getOrCount('res', 't', 'f', 'v', 2000, count)).toBe(2);
  });

  it('pages of one filter arriving together share one count; a failed count is not kept', async () => {
    const totals = new PageTotals();
    let finish: (total: number) => void = () => undefined;
    const slow = jest.fn(() => new Promise<number>((resolve) => (finish = resolve)));
    const both = Promise.all([totals.getOrCount('res', 't', 'f', 'v', 1000, slow), totals.getOrCount('res', 't', 'f', 'v', 1000, slow)]);
    finish(4);
    expect(await both).toEqual([4, 4]);
    expect(slow).toHaveBeenCalledTimes(1);

    const failing = jest.fn(() => Promise.reject(new Error('lost connection')));
    await expect(totals.getOrCount('res', 't', 'g', 'v', 1000, failing)).rejects.toThrow('lost connection');
    expect(await totals.getOrCount('res', 't', 'g', 'v', 1000, counter([7]))).toBe(7);
  });

  it('keeps at most its bound of entries, dropping the least recently used', async () => {
    const totals = new PageTotals(3);
    const count = counter([1, 2, 3, 4, 5, 6]);
    for (const filter of ['a', 'b', 'c']) await totals.getOrCount('res', 't', filter, 'v', 1000, count);
    await totals.getOrCount('res', 't', 'a', 'v', 1000, count); // used: b is now the least recent
    await totals.getOrCount('res', 't', 'd', 'v', 1000, count);
    expect(totals.size).toBe(3);
    expect(await totals.getOrCount('res', 't', 'a', 'v', 1000, count)).toBe(1);
    expect(await totals.getOrCount('res', 't', 'b', 'v', 1000, count)).toBe(5);
    expect(count).toHaveBeenCalledTimes(5);
  });
});

describe('totalShownByRows', () => {
  it('a page shorter than pageSize shows the total, unless it is empty past the first page', () => {
    expect(totalShownByRows(0, 10, 3)).toBe(3);
    expect(totalShownByRows(0, 10, 0)).toBe(0);
    expect(totalShownByRows(20, 10, 4)).toBe(24);
    expect(totalShownByRows(20, 10, 0)).toBeUndefined();
    expect(totalShownByRows(0, 10, 10)).toBeUndefined();
    expect(totalShownByRows(0, 0, 0)).toBeUndefined();
  });
});
