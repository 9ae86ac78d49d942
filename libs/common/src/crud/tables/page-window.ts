/** The rows of a page as read: `take` rows after `skip`, from the start of the order or (reversed) from its end. */
export interface PageWindow {
  skip: number;
  take: number;
  reversed: boolean;
}

export type SortOrder = Record<string, 'ASC' | 'DESC'>;

/**
 * Where the page at `offset` is read from when `total` rows match: from whichever end is nearer, so a last page
 * skips as few rows as a first one; undefined beyond the end. Reversing is exact because the order ends with
 * the identifier (no two rows tie).
 */
export function pageWindow(offset: number, pageSize: number, total: number): PageWindow | undefined {
  if (offset >= total) return undefined;
  const fromEnd = total - offset - pageSize;
  if (fromEnd >= offset) return { skip: offset, take: pageSize, reversed: false };
  // a partial last page: its rows are the first (total - offset) of the reversed order
  return fromEnd >= 0 ? { skip: fromEnd, take: pageSize, reversed: true } : { skip: 0, take: pageSize + fromEnd, reversed: true };
}

export function reversedOrder(order: SortOrder): SortOrder {
  return Object.fromEntries(Object.entries(order).map(([field, direction]) => [field, direction === 'ASC' ? 'DESC' : 'ASC']));
}
