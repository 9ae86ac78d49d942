import { Entity } from 'typeorm';
import { BaseRecord } from '../../persistence/base-record';
import { Field } from './fields';
import { OrderedResource, pageOrder } from './page-order';
import { resourceIndexes } from './resource-indexes';

@Entity('fixture_widget')
class Widget extends BaseRecord {
  @Field.id() widgetId: string;
  @Field.text({ max: 64, required: true, key: true }) code: string;
  @Field.text({ max: 64 }) typeCode: string | null;
  @Field.text({ max: 64 }) colour: string | null;
  @Field.int() sort: number | null;
}

const widget: OrderedResource = {
  path: 'fixture/widget',
  entity: Widget,
  idField: 'widgetId',
  filters: ['typeCode', 'colour', 'code'],
  sortable: ['typeCode', 'colour', 'code', 'sort', 'createdTime', 'lastModifiedTime'],
  defaultSort: [
    ['sort', 'ASC'],
    ['createdTime', 'ASC'],
  ],
  uniqueKey: ['code'],
};

/** The columns after (tenant, live) of each derived index, to check an order against. */
const indexed = resourceIndexes(widget).map((i) => i.columns.slice(2).join());

describe('the order of a page', () => {
  it('without a filter: the default sort or the sort, then the identifier in the last key direction (as their indexes end)', () => {
    expect(pageOrder(widget, [])).toEqual({ sort: 'ASC', createdTime: 'ASC', widgetId: 'ASC' });
    expect(pageOrder(widget, [], ['sort', 'DESC'])).toEqual({ sort: 'DESC', widgetId: 'DESC' });
    expect(pageOrder(widget, [], ['colour', 'ASC'])).toEqual({ colour: 'ASC', widgetId: 'ASC' });
  });

  it("with a filter, sorted by the default sort's first key: that key and the keys after it, as the filter's index holds them", () => {
    const order = pageOrder(widget, ['typeCode'], ['sort', 'DESC']);
    expect(order).toEqual({ sort: 'DESC', createdTime: 'DESC', widgetId: 'DESC' });
    expect(indexed).toContain(['typeCode', ...Object.keys(order).slice(0, -1)].join());
  });

  it('sorted by a field the filters fix: the default order (the field is one value)', () => {
    expect(pageOrder(widget, ['typeCode'], ['typeCode', 'DESC'])).toEqual({
      typeCode: 'DESC',
      sort: 'ASC',
      createdTime: 'ASC',
      widgetId: 'ASC',
    });
    expect(pageOrder(widget, ['typeCode', 'colour'], ['colour', 'ASC'])).toEqual({
      colour: 'ASC',
      sort: 'ASC',
      createdTime: 'ASC',
      widgetId: 'ASC',
    });
  });

  it("with a filter, without a sort: the default order; any other sort: the field, then the identifier (the field's own index)", () => {
    expect(pageOrder(widget, ['colour'])).toEqual({ sort: 'ASC', createdTime: 'ASC', widgetId: 'ASC' });
    expect(pageOrder(widget, ['colour'], ['createdTime', 'DESC'])).toEqual({ createdTime: 'DESC', widgetId: 'DESC' });
  });

  it('a filter on the one-field business key (at most one live row, no index of its own) keeps the plain order', () => {
    expect(pageOrder(widget, ['code'], ['sort', 'DESC'])).toEqual({ sort: 'DESC', widgetId: 'DESC' });
    // with another filter given, that filter's index decides
    expect(pageOrder(widget, ['code', 'colour'], ['sort', 'DESC'])).toEqual({ sort: 'DESC', createdTime: 'DESC', widgetId: 'DESC' });
  });
});
