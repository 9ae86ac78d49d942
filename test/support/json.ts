/**
 * A parsed JSON body whose shape the test checks itself (toMatchObject, toEqual): `any` lets a test read
 * nested fields without a cast at each step, and the assertion is what types them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;
