import { saveDtoOf } from '@app/common';
import { ValueSetTable } from './value-set-table.entity';

/** The body of save (derived from the entity's fields), also the row of saveBatch. */
export const ValueSetTableSave = saveDtoOf(ValueSetTable);
export type ValueSetTableSave = InstanceType<typeof ValueSetTableSave>;
