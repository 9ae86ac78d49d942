import { AppException } from './app-exception';
import { MAX_BODY_DEPTH, sanitizeBody, sanitizeSmallBody } from './body-sanitizer';

const nested = (levels: number, wrap: (inner: unknown) => unknown): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = wrap(value);
  return value;
};

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

  it(`accepts ${MAX_BODY_DEPTH} levels and refuses one more (400), for arrays and objects`, async () => {
    expect(await refusal(nested(MAX_BODY_DEPTH, (x) => [x]))).toBeUndefined();
    expect(await refusal(nested(MAX_BODY_DEPTH, (x) => ({ a: x })))).toBeUndefined();
    for (const deep of [nested(MAX_BODY_DEPTH + 1, (x) => [x]), nested(MAX_BODY_DEPTH + 1, (x) => ({ a: x }))]) {
      expect(await refusal(deep)).toMatchObject({ bodyStatus: 400, message: `Request body nests deeper than ${MAX_BODY_DEPTH} levels` });
    }
  });

  it('refuses 100,000 levels without overflowing the stack', async () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
    expect(await refusal(deep)).toMatchObject({ bodyStatus: 400 });
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

  it('throws the same refusals (depth, lone surrogates) synchronously', () => {
    expect(() => sanitizeSmallBody(nested(MAX_BODY_DEPTH + 1, (x) => ({ a: x })))).toThrow(
      expect.objectContaining({ bodyStatus: 400, message: `Request body nests deeper than ${MAX_BODY_DEPTH} levels` }),
    );
    expect(() => sanitizeSmallBody(JSON.parse('[{"x":{"list":["ok","\\udc00"]}}]'))).toThrow(
      expect.objectContaining({ message: '[0].x.list[1]: the text must not contain a lone UTF-16 surrogate' }),
    );
  });
});
