import { DataDictionary } from './data-dictionary/data-dictionary.entity';
import { DataDictionaryMap } from './data-dictionary-map/data-dictionary-map.entity';
import { DataDictionaryTable } from './data-dictionary-table/data-dictionary-table.entity';
import { DataDictionaryType } from './data-dictionary-type/data-dictionary-type.entity';
import { Translation } from './translation/translation.entity';
import { ValueSet } from './value-set/value-set.entity';
import { ValueSetMap } from './value-set-map/value-set-map.entity';
import { ValueSetTable } from './value-set-table/value-set-table.entity';
import { ValueSetType } from './value-set-type/value-set-type.entity';

export const CONFIGURATION_ENTITIES = [
  DataDictionary, DataDictionaryMap, DataDictionaryTable, DataDictionaryType, Translation, ValueSet, ValueSetMap, ValueSetTable, ValueSetType,
];
