import { Entity } from 'typeorm';
import { BaseRecord } from '../../persistence/base-record';
import { saveDtoOf } from './field-dto';
import { Field } from './fields';
import { CLOCK_SKEW_ALLOWANCE_MS } from './time-bound';
import { validateRows } from './validate-rows';

const HOUR = 3_600_000;
const YEAR_2200 = Date.UTC(2200, 0, 1);

@Entity('fixture_visit')
class Visit extends BaseRecord {
  @Field.id() visitId: string;
  /** When it happened. */
  @Field.time({ required: true, past: true }) visitTime: number;
  /** When the next one is due: it lies ahead. */
  @Field.time() nextTime: number | null;
}

const errorsOf = async (row: object) => (await validateRows(saveDtoOf(Visit), [row])).errors.map((e) => e.error);

describe('times of what happened (Field.time past)', () => {
  it('are refused later than now plus the clock-skew allowance, naming the field and the bound', async () => {
    expect(CLOCK_SKEW_ALLOWANCE_MS).toBe(24 * HOUR);
    expect(await errorsOf({ visitTime: YEAR_2200 })).toEqual(['[0].visitTime must not be later than 24 hours from now']);
    expect(await errorsOf({ visitTime: Date.now() + CLOCK_SKEW_ALLOWANCE_MS + HOUR })).toHaveLength(1);
  });

  it('are accepted up to the allowance ahead; a time that lies ahead by nature is not bounded', async () => {
    expect(await errorsOf({ visitTime: Date.now() + HOUR })).toEqual([]);
    expect(await errorsOf({ visitTime: Date.now() + CLOCK_SKEW_ALLOWANCE_MS - HOUR, nextTime: YEAR_2200 })).toEqual([]);
  });
});
