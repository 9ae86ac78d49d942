/**
 * What the operation files of the standard suite share for one resource of a group: its table row, its
 * client, and helpers derived from the row. The suite (./suite.ts) builds one per resource.
 */
import { ResourceSpec, SampleRecord, updateValueOf } from '../resource-table';
import { TestApp } from '../test-app';
import { Claims } from '../tokens';
import type { Json } from '../json';
import { client, ResourceClient } from './client';

/**
 * The standard operations alone: no delivery attempt changes a message record (its status, retryCount) between
 * two reads of a case. On a busy machine an attempt due by then landed between a list and a page.
 */
export const STANDARD_ONLY = { DISPATCH_ENABLED: 'false' };
/** The bounds of the app with small bounds (paging tests), shared by every resource of a group. */
export const LIMITS = { ...STANDARD_ONLY, PAGE_SIZE_MAX: '5', LIST_LIMIT_MAX: '3' };
export const TENANT_B: Claims = { tenantId: 'tenant-b', sub: 'bert' };

export const withoutNulls = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([, value]) => value !== null));
export const sortedCopy = (values: unknown[], order: 'ascend' | 'descend'): unknown[] => {
  const copy = [...values].sort((a, b) => (a === b ? 0 : (a as never) < (b as never) ? -1 : 1));
  return order === 'ascend' ? copy : copy.reverse();
};

export function expectFailure(res: Json, status: number, path: string, mentions?: string): void {
  expect(res).toMatchObject({ httpStatus: 200, status, path, data: null });
  expect(typeof res.error).toBe('string');
  if (mentions) expect(res.error).toContain(mentions);
}

/** Another valid value of a filter field than the sample's (enums and booleans have a closed set). */
export function otherFilterValue(r: ResourceSpec, field: string, sample: SampleRecord): unknown {
  if (r.filterAlternatives && field in r.filterAlternatives) return r.filterAlternatives[field];
  const value = sample[field];
  return typeof value === 'boolean' ? !value : `${String(value)}x`;
}

export interface ResourceContext {
  r: ResourceSpec;
  c: ResourceClient;
  /** The resource's path: group prefix and segment. */
  P: string;
  id: (rec: Json) => string;
  /** updateField's value for a label. */
  v: (label: string) => unknown;
  typedField: string;
  /** A body as reads show it: without its write-only fields. */
  readable: (body: Json) => Json;
  hasKey: boolean;
  lastKey: string;
  /** A required string field, for wrong-type tests. */
  textField: string;
  /** Registered only where it applies: a resource without a business key has no duplicate rules. */
  keyedIt: (name: string, fn: () => Promise<void>) => void;
  invalidCases: ResourceSpec['invalid'];
  getOp: (op: 'count' | 'list' | 'page') => (body: Json) => ReturnType<ResourceClient['list']>;
  /** The group's app (started in the suite's beforeAll). */
  app: () => TestApp;
  /** The group's app with small bounds (LIMITS). */
  limitedApp: () => TestApp;
}

export function contextOf(r: ResourceSpec, app: () => TestApp, limitedApp: () => TestApp): ResourceContext {
  const c = client(app, r);
  const hasKey = r.keyFields.length > 0;
  return {
    r,
    c,
    P: c.P,
    id: (rec) => rec[r.idField],
    v: (label) => updateValueOf(r, label),
    typedField: r.typedField,
    readable: (body) => Object.fromEntries(Object.entries(body).filter(([k]) => !(r.writeOnly ?? []).includes(k))),
    hasKey,
    lastKey: r.keyFields[r.keyFields.length - 1],
    textField: r.requiredFields.find((f) => typeof r.sample('x')[f] === 'string')!,
    keyedIt: (name, fn) => (hasKey ? it(name, fn) : undefined),
    // null means "not given", never an invalid value: the suite checks no table row refuses a null
    invalidCases: r.invalid,
    getOp: (op) => (body) => (op === 'count' ? c.countRaw(body) : c[op](body)),
    app,
    limitedApp,
  };
}
