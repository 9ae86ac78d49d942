/**
 * The 9 standard configuration resources of main-service, described once for table-driven tests.
 * Everything here comes from the spec, DESIGN.md (§3, §4, §7, §9) and docs/decisions.md, not from the
 * application code, so a test driven by this table can disagree with the code.
 */
export type SampleRecord = Record<string, unknown>;

export interface ConfigurationResource {
  /** Segment after /main-service/system-api/configuration/. */
  segment: string;
  /** `<resourceCamel>Id` (DESIGN §3). */
  idField: string;
  /** Permission name without the action (DESIGN §7): `configuration-<segment>` or `<segment>`. */
  permission: string;
  /** The 422 text of DESIGN §4; null where neither the spec nor DESIGN lists one (translation). */
  duplicateText: string | null;
  /** The 422 text the service uses (for translation it is docs/decisions.md's `Translation exists`). */
  uniqueKeyText: string;
  /** A valid save body; every key field embeds the seed, so different seeds never collide. */
  sample: (seed: string) => SampleRecord;
  /** Uniqueness key (spec "Resources" table; translation: docs/decisions.md). */
  keyFields: string[];
  /** Exact-match filter fields of count/list/page. */
  filterFields: string[];
  /** A string field clients may sort by (sqlQuerySorter.field). */
  sortField: string;
  /** A nullable string field that is not part of the key, for updateById. */
  updateField: string;
  /** A string field with a maximum length (DESIGN §9 "lengths that fit the columns"). */
  maxLength: { field: string; max: number };
}

export const CONFIGURATION_PREFIX = '/main-service/system-api/configuration';

export const CONFIGURATION_RESOURCES: ConfigurationResource[] = [
  {
    segment: 'data-dictionary',
    idField: 'dataDictionaryId',
    permission: 'configuration-data-dictionary',
    duplicateText: 'Data dictionary exists',
    uniqueKeyText: 'Data dictionary exists',
    sample: (s) => ({ dataDictionaryTypeCode: `ddt-${s}`, dataDictionaryCode: `code-${s}`, value: `value-${s}`, name: `Name ${s}`, sort: 3, remark: `remark ${s}` }),
    keyFields: ['dataDictionaryTypeCode', 'dataDictionaryCode'],
    filterFields: ['dataDictionaryTypeCode', 'dataDictionaryCode'],
    sortField: 'dataDictionaryCode',
    updateField: 'value',
    maxLength: { field: 'dataDictionaryCode', max: 64 },
  },
  {
    segment: 'data-dictionary-map',
    idField: 'dataDictionaryMapId',
    permission: 'configuration-data-dictionary-map',
    duplicateText: 'Data dictionary map exists',
    uniqueKeyText: 'Data dictionary map exists',
    sample: (s) => ({ dataDictionaryTypeCode: `ddt-${s}`, dataDictionaryCode: `code-${s}`, key: `icon-${s}`, value: `mdi-${s}`, name: `Name ${s}`, sort: 2 }),
    keyFields: ['dataDictionaryTypeCode', 'dataDictionaryCode', 'key'],
    filterFields: ['dataDictionaryTypeCode', 'dataDictionaryCode', 'key'],
    sortField: 'key',
    updateField: 'value',
    maxLength: { field: 'key', max: 128 },
  },
  {
    segment: 'data-dictionary-table',
    idField: 'dataDictionaryTableId',
    permission: 'configuration-data-dictionary-table',
    duplicateText: 'Data dictionary table exists',
    uniqueKeyText: 'Data dictionary table exists',
    sample: (s) => ({ dataDictionaryTypeCode: `ddt-${s}`, dataDictionaryCode: `code-${s}`, row: `row-${s}`, key: `capital-${s}`, value: `city-${s}`, name: `Name ${s}`, sort: 4 }),
    keyFields: ['dataDictionaryTypeCode', 'dataDictionaryCode', 'row', 'key'],
    filterFields: ['dataDictionaryTypeCode', 'dataDictionaryCode', 'row'],
    sortField: 'row',
    updateField: 'value',
    maxLength: { field: 'row', max: 64 },
  },
  {
    segment: 'data-dictionary-type',
    idField: 'dataDictionaryTypeId',
    permission: 'configuration-data-dictionary-type',
    duplicateText: 'Data dictionary type exists',
    uniqueKeyText: 'Data dictionary type exists',
    sample: (s) => ({ dataDictionaryTypeCode: `ddt-${s}`, name: `Name ${s}`, sort: 1, remark: `remark ${s}` }),
    keyFields: ['dataDictionaryTypeCode'],
    filterFields: ['dataDictionaryTypeCode'],
    sortField: 'dataDictionaryTypeCode',
    updateField: 'remark',
    maxLength: { field: 'dataDictionaryTypeCode', max: 64 },
  },
  {
    segment: 'translation',
    idField: 'translationId',
    permission: 'configuration-translation',
    duplicateText: null,
    uniqueKeyText: 'Translation exists',
    // language stays a BCP 47 tag: the seed is the (at most 8 alphanumerics) subtag
    sample: (s) => ({ language: `en-${s}`, namespace: `ns-${s}`, key: `button.save.${s}`, value: `Save ${s}`, draft: false }),
    keyFields: ['language', 'namespace', 'key'],
    filterFields: ['language', 'namespace', 'key', 'draft'],
    sortField: 'key',
    updateField: 'value',
    maxLength: { field: 'key', max: 255 },
  },
  {
    segment: 'value-set',
    idField: 'valueSetId',
    permission: 'value-set',
    duplicateText: 'Value set exists',
    uniqueKeyText: 'Value set exists',
    sample: (s) => ({ valueSetTypeCode: `vst-${s}`, value: `high-${s}`, name: `Name ${s}`, sort: 6, remark: `remark ${s}` }),
    keyFields: ['valueSetTypeCode', 'value'],
    filterFields: ['valueSetTypeCode', 'value'],
    sortField: 'value',
    updateField: 'remark',
    maxLength: { field: 'value', max: 255 },
  },
  {
    segment: 'value-set-map',
    idField: 'valueSetMapId',
    permission: 'value-set-map',
    duplicateText: 'Value set map exists',
    uniqueKeyText: 'Value set map exists',
    sample: (s) => ({ valueSetTypeCode: `vst-${s}`, key: `high-${s}`, value: `#f00-${s}`, name: `Name ${s}`, sort: 7 }),
    keyFields: ['valueSetTypeCode', 'key'],
    filterFields: ['valueSetTypeCode', 'key'],
    sortField: 'key',
    updateField: 'value',
    maxLength: { field: 'key', max: 128 },
  },
  {
    segment: 'value-set-table',
    idField: 'valueSetTableId',
    permission: 'value-set-table',
    duplicateText: 'Value set table exists',
    uniqueKeyText: 'Value set table exists',
    sample: (s) => ({ valueSetTypeCode: `vst-${s}`, row: `row-${s}`, key: `start-${s}`, value: `08:00-${s}`, name: `Name ${s}`, sort: 8 }),
    keyFields: ['valueSetTypeCode', 'row', 'key'],
    filterFields: ['valueSetTypeCode', 'row'],
    sortField: 'row',
    updateField: 'value',
    maxLength: { field: 'row', max: 64 },
  },
  {
    segment: 'value-set-type',
    idField: 'valueSetTypeId',
    permission: 'value-set-type',
    duplicateText: 'Value set type exists',
    uniqueKeyText: 'Value set type exists',
    sample: (s) => ({ valueSetTypeCode: `vst-${s}`, name: `Name ${s}`, sort: 9, remark: `remark ${s}` }),
    keyFields: ['valueSetTypeCode'],
    filterFields: ['valueSetTypeCode'],
    sortField: 'valueSetTypeCode',
    updateField: 'remark',
    maxLength: { field: 'valueSetTypeCode', max: 64 },
  },
];

export function configurationResource(segment: string): ConfigurationResource {
  const found = CONFIGURATION_RESOURCES.find((r) => r.segment === segment);
  if (!found) throw new Error(`no configuration resource ${segment}`);
  return found;
}
