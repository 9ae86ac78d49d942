import { countJsonValues } from './json-values';

const count = (text: string, stopAbove = 1_000_000) => countJsonValues(Buffer.from(text), stopAbove);

/** The exact number of values of parsed JSON. */
const values = (value: unknown): number =>
  typeof value === 'object' && value !== null ? 1 + Object.values(value).reduce<number>((n, v) => n + values(v), 0) : 1;

describe('countJsonValues', () => {
  it('is never below the number of values, and at most twice it (empty containers count twice)', () => {
    for (const text of [
      '{}',
      '[]',
      '[[],[],[]]',
      '[{},{"a":1}]',
      '{"a":1,"b":[1,2,{"c":null}],"d":"x"}',
      '[{"name":"a","sort":1,"remark":null},{"name":"b","sort":2,"remark":"r"}]',
      '"just a string"',
      '17',
    ]) {
      const n = count(text);
      expect({ text, atLeast: n >= values(JSON.parse(text)) }).toEqual({ text, atLeast: true });
      expect(n).toBeLessThanOrEqual(2 * values(JSON.parse(text)));
    }
  });

  it('does not count marks inside strings, escaped quotes included', () => {
    expect(count('["a,b,[c]{d}", "\\",[,{", "\\\\"]')).toBe(4);
    expect(count('{"k,[":"v,{"}')).toBe(2);
    expect(count('["中文,😀", ","]')).toBe(3);
  });

  it('stops once past the bound', () => {
    expect(count(`[${'[],'.repeat(1000)}[]]`, 10)).toBe(11);
  });
});
