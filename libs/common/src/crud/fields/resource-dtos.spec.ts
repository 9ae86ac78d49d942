import { Entity } from 'typeorm';
import { IsOptional, IsString } from 'class-validator';
import { BaseRecord } from '../../persistence/base-record';
import { acceptedBody } from '../../http/compiled-validation';
import { SqlQuerySorter } from '../http/query-controls';
import { Field } from './fields';
import { defineResource } from './resource';

@Entity('fixture_gizmo')
class Gizmo extends BaseRecord {
  @Field.id() gizmoId: string;
  @Field.text({ max: 64, required: true, key: true }) code: string;
  @Field.text({ max: 64 }) colour: string | null;
}

const options = {
  path: 'fixture/gizmo',
  title: 'Gizmo',
  permission: 'fixture-gizmo',
  entity: Gizmo,
  idField: 'gizmoId' as const,
  filters: ['colour'] as ('colour' | 'code')[],
  sortable: ['code'] as ('colour' | 'code')[],
  defaultSort: [['code', 'ASC']] as [keyof Gizmo & string, 'ASC' | 'DESC'][],
  uniqueKey: ['code'] as ('colour' | 'code')[],
};

/** A resource's own save body: not built from field declarations, so nothing derived from it is vouched for. */
class OwnSave {
  @IsOptional() @IsString() code?: string;
  @IsOptional() @IsString() colour?: string;
}

describe("a resource's list and page bodies", () => {
  const sorted = { colour: 'red', sqlQuerySorter: { field: 'code', order: 'descend', extra: 1 } };

  it('take the compiled rule checks with a sorter, which becomes the sorter class with its unknown keys left out', () => {
    const resource = defineResource(options as never);
    for (const dto of [resource.listDto, resource.pageDto]) {
      const body = acceptedBody(dto as new () => object, { ...sorted, current: 1, pageSize: 10, sqlQueryLimit: 5 }) as Record<
        string,
        unknown
      >;
      expect(body).toBeDefined();
      expect(body.sqlQuerySorter).toBeInstanceOf(SqlQuerySorter);
      expect(body.sqlQuerySorter).toEqual({ field: 'code', order: 'descend' });
    }
  });

  it('are left to class-validator when the resource brings its own save body', () => {
    const resource = defineResource({ ...options, saveDto: OwnSave } as never);
    for (const dto of [resource.listDto, resource.pageDto]) expect(acceptedBody(dto as new () => object, sorted)).toBeUndefined();
  });
});
