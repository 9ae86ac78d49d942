/** The one response shape of every operation (spec "Common envelope"). */
export interface Envelope<T = unknown> {
  timestamp: number;
  status: number;
  error: string | null;
  localizedError: string | null;
  path: string | null;
  extraData: Record<string, unknown>;
  data: T | null;
}

/** Returned by a handler whose operation has `extraData` keys (page, importList, ...). */
export class WithExtra<T> {
  constructor(
    readonly data: T,
    readonly extraData: Record<string, unknown>,
  ) {}
}

export function success<T>(value: T | WithExtra<T>): Envelope<T> {
  const withExtra = value instanceof WithExtra;
  return {
    timestamp: Date.now(),
    status: 200,
    error: null,
    localizedError: null,
    path: null,
    extraData: withExtra ? value.extraData : {},
    data: (withExtra ? value.data : value) ?? null,
  };
}

export function failure(
  status: number,
  error: string,
  path: string,
  localizedError?: string,
  extraData: Record<string, unknown> = {},
): Envelope<null> {
  return { timestamp: Date.now(), status, error, localizedError: localizedError ?? error, path, extraData, data: null };
}
