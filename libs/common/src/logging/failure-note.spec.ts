import { MAX_PROPERTY_CHARS, MAX_REFUSED_ON_LINE, refusalNote } from './failure-note';

describe('refusalNote (what a refused request line names)', () => {
  it('keeps every property of a short list as it is', () => {
    const refused = [
      { property: 'code', rule: 'required' },
      { property: '[2].name', rule: 'isString' },
    ];
    expect(refusalNote(refused)).toEqual({ refused });
  });

  it(`names at most ${MAX_REFUSED_ON_LINE} properties and counts the others`, () => {
    const refused = Array.from({ length: 1000 }, (_, i) => ({ property: `[${i}].code`, rule: 'isNotEmpty' }));
    const note = refusalNote(refused);
    expect(note.refused).toHaveLength(MAX_REFUSED_ON_LINE);
    expect(note.refused![MAX_REFUSED_ON_LINE - 1]).toEqual({ property: `[${MAX_REFUSED_ON_LINE - 1}].code`, rule: 'isNotEmpty' });
    expect(note.refusedOmitted).toBe(1000 - MAX_REFUSED_ON_LINE);
  });

  it(`cuts a property path after ${MAX_PROPERTY_CHARS} characters`, () => {
    const long = `map.${'k'.repeat(10_000)}`;
    const [named] = refusalNote([{ property: long, rule: 'isString' }]).refused!;
    expect(named).toEqual({ property: `${long.slice(0, MAX_PROPERTY_CHARS)}…`, rule: 'isString' });
  });
});
