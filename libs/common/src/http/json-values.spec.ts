import { JsonBounds, measureJson, parseJsonRows } from './json-values';

const LOOSE: JsonBounds = { values: 1_000_000, depth: 1_000, recordValues: 1_000_000, recordProperties: 1_000_000 };
const measure = (text: string, bounds: Partial<JsonBounds> = {}) => measureJson(text, { ...LOOSE, ...bounds });
/** The values counted: the least `values` bound the text stays within. */
const counted = async (text: string): Promise<number> => {
  let bound = 1;
  while ((await measure(text, { values: bound })).excess) bound++;
  return bound;
};

/** The exact number of values of parsed JSON. */
const values = (value: unknown): number =>
  typeof value === 'object' && value !== null ? 1 + Object.values(value).reduce<number>((n, v) => n + values(v), 0) : 1;

const objectOf = (keys: number) => `{${Array.from({ length: keys }, (_, i) => `"k${i}":1`).join(',')}}`;

describe('measureJson', () => {
  it('counts values never below the number of values, and at most twice it (empty containers count twice)', async () => {
    for (const text of [
      '{}',
      '[]',
      '[[],[],[]]',
      '[{},{"a":1}]',
      '{"a":1,"b":[1,2,{"c":null}],"d":"x"}',
      '[{"name":"a","sort":1,"remark":null},{"name":"b","sort":2,"remark":"r"}]',
    ]) {
      const n = await counted(text);
      expect({ text, atLeast: n >= values(JSON.parse(text)) }).toEqual({ text, atLeast: true });
      expect(n).toBeLessThanOrEqual(2 * values(JSON.parse(text)));
    }
  });

  it('does not count marks inside strings, escaped quotes included', async () => {
    expect(await counted('["a,b,[c]{d}:", "\\",[,{:", "\\\\"]')).toBe(4);
    expect(await counted('{"k,[:":"v,{:"}')).toBe(2);
    expect((await measure('{"k,[:":"v,{:"}', { recordProperties: 1 })).excess).toBeUndefined();
    expect(await counted('["中文,😀", ","]')).toBe(3);
  });

  it('stops at the first bound exceeded: values of the text', async () => {
    expect(await measure(`[${'[],'.repeat(1000)}[]]`, { values: 10 })).toEqual({ excess: { bound: 'values', row: 4 } });
  });

  it('bounds the properties of an object body, nested objects included, and of each row of an array body', async () => {
    expect((await measure(objectOf(1000), { recordProperties: 1000 })).excess).toBeUndefined();
    expect(await measure(objectOf(1001), { recordProperties: 1000 })).toEqual({ excess: { bound: 'recordProperties' } });
    expect(await measure(`{"a":${objectOf(600)},"b":[${objectOf(400)}]}`, { recordProperties: 1000 })).toEqual({
      excess: { bound: 'recordProperties' },
    });
    // rows are counted one by one: 3 rows of 1,000 are within the bound, a row of 1,001 is not
    const rows = [objectOf(1000), objectOf(1000), objectOf(1000)];
    expect((await measure(`[${rows.join(',')}]`, { recordProperties: 1000 })).excess).toBeUndefined();
    expect(await measure(`[${rows.join(',')},${objectOf(1001)}]`, { recordProperties: 1000 })).toEqual({
      excess: { bound: 'recordProperties', row: 3 },
    });
  });

  it('bounds the values of a record: an object body as a whole, each row of an array body', async () => {
    const list = (n: number) => `[${Array.from({ length: n }, () => '1').join(',')}]`;
    expect((await measure(`{"to":${list(100)}}`, { recordValues: 102 })).excess).toBeUndefined();
    expect(await measure(`{"to":${list(200)}}`, { recordValues: 102 })).toEqual({ excess: { bound: 'recordValues' } });
    expect((await measure(`[{"to":${list(100)}},{"to":${list(100)}}]`, { recordValues: 102 })).excess).toBeUndefined();
    expect(await measure(`[{"to":${list(100)}},{"to":${list(200)}}]`, { recordValues: 102 })).toEqual({
      excess: { bound: 'recordValues', row: 1 },
    });
  });

  it('bounds the depth: the outermost container is level 1', async () => {
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    expect((await measure(nested(32), { depth: 32 })).excess).toBeUndefined();
    expect(await measure(nested(33), { depth: 32 })).toEqual({ excess: { bound: 'depth', row: 0 } });
    expect(await measure('{"a":'.repeat(33) + '1' + '}'.repeat(33), { depth: 32 })).toEqual({ excess: { bound: 'depth' } });
  });

  it("gives an array text's separators: its `[`, the commas between its elements and its closing mark", async () => {
    expect(await measure('[1, {"a":[2,3]} ,"x,y"]')).toEqual({ separators: [0, 2, 16, 22] });
    expect(await measure(' [ ] ')).toEqual({ separators: [1, 3] });
    expect(await measure('{"a":[1,2]}')).toEqual({});
  });

  it('awaits `pause` every 64K characters when given one', async () => {
    let pauses = 0;
    const text = `[${'"x",'.repeat(100_000)}"x"]`;
    await measureJson(text, LOOSE, async () => void pauses++);
    expect(pauses).toBe(Math.floor(text.length / (64 * 1024)));
  });
});

describe('parseJsonRows', () => {
  const rows = async (text: string) => parseJsonRows(text, (await measure(text)).separators!, async () => undefined);

  it('parses an array text as JSON.parse does, pausing between rows', async () => {
    for (const text of ['[]', ' [ ] ', '[1]', '[{"a":[1,{"b":"],["}]}, 2 ,"x,y",null,[]]\n', `[${'{"k":"v"},'.repeat(999)}{"k":"v"}]`])
      expect(await rows(text)).toEqual(JSON.parse(text));
    let pauses = 0;
    await parseJsonRows('[1,2,3]', [0, 2, 4, 6], async () => void pauses++);
    expect(pauses).toBe(3);
  });

  it('throws SyntaxError where JSON.parse does', async () => {
    for (const text of ['[1,,2]', '[1,2,]', '[,]', '[1 2]', '[1,2', '[1,2}', '[1] x', '[1]\u00a0', '[{"a":1],2}', '["a]'])
      await expect(rows(text)).rejects.toThrow(SyntaxError);
  });
});
