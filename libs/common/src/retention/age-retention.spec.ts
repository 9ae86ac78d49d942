import { Entity } from 'typeorm';
import { Field } from '../crud/fields/fields';
import type { AnyResource } from '../crud/fields/resource';
import { BaseRecord } from '../persistence/base-record';
import { AgeRetention } from './age-retention';

@Entity('fixture_reading')
class Reading extends BaseRecord {
  @Field.id() readingId: string;
  /** When it was read: it has happened. */
  @Field.time({ required: true, past: true }) readTime: number;
  /** When it is due again: it lies ahead, unbounded. */
  @Field.time() dueTime: number | null;
}

const retainedBy = (timeRange: string) => ({ path: 'fixture/reading', entity: Reading, timeRange }) as unknown as AnyResource;

describe('AgeRetention', () => {
  it('goes only by a main time field bounded to now, which no record can set beyond its reach', () => {
    expect(() => new AgeRetention([retainedBy('readTime')], 7)).not.toThrow();
    expect(() => new AgeRetention([retainedBy('dueTime')], 7)).toThrow(
      'fixture/reading: retention by age needs dueTime declared Field.time({ past: true })',
    );
  });
});
