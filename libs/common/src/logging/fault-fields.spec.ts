import { faultFields } from './fault-fields';

describe('faultFields (what the line of a 500 says of its error)', () => {
  it("names the error's class, its driver's code, message and stack, and none of its other properties", () => {
    const error = Object.assign(new Error('no such table: t'), {
      name: 'QueryFailedError',
      query: 'SELECT secret FROM t WHERE v = ?',
      parameters: ['a value'],
      driverError: { code: 'SQLITE_ERROR' },
    });
    const fields = faultFields(error);
    expect(fields).toMatchObject({ name: 'QueryFailedError', code: 'SQLITE_ERROR', message: 'no such table: t' });
    expect(fields.stack).toMatch(/\n\s+at /);
    expect(Object.keys(fields).sort()).toEqual(['code', 'message', 'name', 'stack']);
  });

  it('bounds a long message and reads a thrown value that is not an Error', () => {
    expect(faultFields(new Error('x'.repeat(100_000))).message.length).toBeLessThan(2_100);
    expect(faultFields('plain text')).toEqual({ name: 'string', message: 'plain text' });
  });
});
