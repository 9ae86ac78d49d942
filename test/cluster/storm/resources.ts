/**
 * The three configuration resources the storm writes, and how its rows and business keys are built: every
 * client module names rows and keys the same way, so the journal and the final checks can match them.
 */
import { randomBytes } from 'node:crypto';

export type Row = Record<string, unknown>;

export interface Resource {
  path: string;
  idField: string;
  /** The uniqueness key; the first field takes a writer's type code, the second a code of its own. */
  key: string[];
}

const CONFIGURATION = '/main-service/system-api/configuration';
export const DD: Resource = {
  path: `${CONFIGURATION}/data-dictionary`,
  idField: 'dataDictionaryId',
  key: ['dataDictionaryTypeCode', 'dataDictionaryCode'],
};
export const DDT: Resource = {
  path: `${CONFIGURATION}/data-dictionary-table`,
  idField: 'dataDictionaryTableId',
  key: ['dataDictionaryTypeCode', 'dataDictionaryCode', 'row', 'key'],
};
export const VST: Resource = {
  path: `${CONFIGURATION}/value-set-table`,
  idField: 'valueSetTableId',
  key: ['valueSetTypeCode', 'row', 'key'],
};

export const rowOf = (r: Resource, type: string, code: string, name: string, more: Row = {}): Row => {
  const [typeField, codeField, ...rest] = r.key;
  return { [typeField]: type, [codeField]: code, ...Object.fromEntries(rest.map((f) => [f, 'k'])), name, ...more };
};
export const keyOf = (r: Resource, row: Row): string => r.key.map((f) => String(row[f])).join('/');
export const clientId = (): string => randomBytes(12).toString('hex');
export const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)];
