/**
 * One row per standard resource (8 operations: count, getById, list, page, removeById, removeByIds,
 * save, updateById), for the table-driven suites (test/e2e/standard-crud-<group>.spec.ts, test/e2e/records/explain.ts).
 * A row takes the wiring facts from its resource's declaration (./tables/declared.ts: path, identifier,
 * permission, key, filters, time range, write-only fields); the rest comes from docs/contract.md and
 * docs/decisions.md, not from the application code, so a test driven by the table can disagree with the code.
 */
export type SampleRecord = Record<string, unknown>;

/** A body that must be refused, and the field the error must name. */
export interface InvalidCase {
  /** Merged into a valid save body (and sent alone, with the identifier, to updateById). */
  patch: SampleRecord;
  /** The field the error text names. */
  field: string;
  /** 400 for a bad value (default), 1003 for a value of the wrong JSON type (contract.md "The envelope"). */
  status?: 400 | 1003;
  /** Why it is invalid, for the test name. */
  why: string;
}

export interface ResourceSpec {
  /** Group prefix, e.g. /main-service/system-api/configuration. */
  prefix: string;
  /** Segment after the prefix. */
  segment: string;
  /** `<resourceCamel>Id` (contract.md "Records"). */
  idField: string;
  /** Permission name without the action (contract.md "Tenancy and access"). */
  permission: string;
  /** The 422 text of contract.md "The envelope"; null where the contract lists none. */
  duplicateText: string | null;
  /** The 422 text the service uses for a live uniqueness key (null: the resource has no business key). */
  uniqueKeyText: string | null;
  /** A valid save body; every free-text filter field embeds the seed, so different seeds never collide. */
  sample: (seed: string) => SampleRecord;
  /** Uniqueness key; empty for resources without a business key (duplicate tests are skipped for them). */
  keyFields: string[];
  /** Fields a save must carry (missing → 400). Strings among them must not be blank either. */
  requiredFields: string[];
  /** Exact-match filter fields of count/list/page; the first is a free-text field embedding the seed. */
  filterFields: string[];
  /** A valid value of the first filter field that no record has (default `no-such-value`; identifiers allow no `-`). */
  noMatch?: string;
  /** For filters with a closed value set (enums, booleans): another valid value than the sample's. */
  filterAlternatives?: SampleRecord;
  /** A field clients may sort by (sqlQuerySorter.field). */
  sortField: string;
  /** The order of list/page without sqlQuerySorter: its first field, direction, and distinct valid values by index. */
  defaultSort: { field: string; order: 'ascend' | 'descend'; value: (i: number) => unknown };
  /** A nullable field that is not part of the key, for updateById. */
  updateField: string;
  /** updateField is not nullable (a link's `sort`, the only field beside its key): updateById with null is refused instead. */
  updateFieldNotNull?: boolean;
  /** A valid value of updateField for a label (distinct labels, distinct values); default: the label itself. */
  updateValue?: (label: string) => unknown;
  /** A required non-string field, for wrong-type (1003) and not-null tests. */
  typedField: string;
  /** A string field with a maximum length (messages.md / snapshots.md "lengths that fit the columns"). */
  maxLength: { field: string; max: number };
  /** The main time field: count/list/page take `<field>Start`/`<field>End` (epoch ms, inclusive). */
  timeRange?: { field: string };
  /** Validation failures of this resource beyond required/blank/length (messages.md / snapshots.md "validate what a user would"). */
  invalid: InvalidCase[];
  /** Values at the edge of a rule that must be accepted (and stored as given), e.g. longitude 180. */
  validEdges?: { why: string; patch: SampleRecord }[];
  /** Secrets: accepted on save/updateById, stored, never returned, kept when an update omits them. */
  writeOnly?: string[];
  /** The resource also has listCache (its reads must not leak write-only fields either). */
  listCache?: boolean;
}

export interface ResourceGroup {
  /** Group name, e.g. configuration. */
  name: string;
  resources: ResourceSpec[];
}

/** updateField's value for a label. */
export const updateValueOf = (r: ResourceSpec, label: string): unknown => (r.updateValue ? r.updateValue(label) : label);

/** Helpers of the group tables. Sample times lie in January 2026; range tests use times from June 2026 on, so they never meet a sample. */
export const T0 = 1767225600000;
export const HOUR = 3_600_000;
/** Distinct, newest-last sample values of a main time field (for default-sort tests). */
export const newest = (i: number): number => T0 + 10 * HOUR + i * 60_000;
export const tooLong = (field: string, max: number): InvalidCase => ({
  why: `${field} longer than ${max}`,
  patch: { [field]: 'y'.repeat(max + 1) },
  field,
});
export const notOneOf = (field: string, value: string): InvalidCase => ({
  why: `${field} "${value}" not in its value set`,
  patch: { [field]: value },
  field,
});
