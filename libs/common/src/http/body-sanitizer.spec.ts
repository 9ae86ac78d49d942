import { AppException } from './app-exception';
import { sanitizeBody, sanitizeSmallBody } from './body-sanitizer';

const refusal = (body: unknown): Promise<AppException | undefined> =>
  sanitizeBody(body).then(
    () => undefined,
    (e: unknown) => e as AppException,
  );

describe('sanitizeBody', () => {
  it('removes null properties at every depth, also in rows of an array body; null array elements stay', async () => {
    const body = [{ a: null, b: 1, c: { d: null, e: [null, { f: null, g: 'x' }] } }, { h: null }];
    await sanitizeBody(body);
    expect(body).toEqual([{ b: 1, c: { e: [null, { g: 'x' }] } }, {}]);
    expect(Object.keys(body[0])).toEqual(['b', 'c']);
  });

  it('leaves non-containers and well-formed text alone', async () => {
    for (const body of [undefined, null, 'x', 5]) expect(await refusal(body)).toBeUndefined();
    const body = { text: 'emoji 😀 and 中文', list: ['ok'], n: 0, f: false };
    await sanitizeBody(body);
    expect(body).toEqual({ text: 'emoji 😀 and 中文', list: ['ok'], n: 0, f: false });
  });

  it('walks 100,000 levels without overflowing the stack (depth is bounded before parsing, not here)', async () => {
    const deep = JSON.parse('['.repeat(100_000) + '{"a":null}' + ']'.repeat(100_000));
    expect(await refusal(deep)).toBeUndefined();
    let innermost = deep;
    for (let i = 0; i < 100_000; i++) innermost = innermost[0];
    expect(innermost).toEqual({});
  });

  it('refuses lone surrogates in values (objects and arrays) and in keys, naming where', async () => {
    expect(await refusal(JSON.parse('{"name":"a\\ud800b"}'))).toMatchObject({
      bodyStatus: 400,
      message: 'name: the text must not contain a lone UTF-16 surrogate',
    });
    expect(await refusal(JSON.parse('[{"x":{"list":["ok","\\udc00"]}}]'))).toMatchObject({
      bodyStatus: 400,
      message: '[0].x.list[1]: the text must not contain a lone UTF-16 surrogate',
    });
    expect(await refusal(JSON.parse('{"x":{"k\\ud800":1}}'))).toMatchObject({
      bodyStatus: 400,
      message: 'x: a property name must not contain a lone UTF-16 surrogate',
    });
    expect(await refusal(JSON.parse('{"pair":"\\ud83d\\ude00"}'))).toBeUndefined();
  });
});

describe('sanitizeSmallBody', () => {
  it('normalises in place before it returns, as sanitizeBody does', () => {
    const body = [{ a: null, b: 1, c: { d: null, e: [null, { f: null, g: 'x' }] } }, { h: null }];
    expect(sanitizeSmallBody(body)).toBeUndefined();
    expect(body).toEqual([{ b: 1, c: { e: [null, { g: 'x' }] } }, {}]);
  });

  it('throws the same refusals (lone surrogates) synchronously', () => {
    expect(() => sanitizeSmallBody(JSON.parse('[{"x":{"list":["ok","\\udc00"]}}]'))).toThrow(
      expect.objectContaining({ message: '[0].x.list[1]: the text must not contain a lone UTF-16 surrogate' }),
    );
  });
});
