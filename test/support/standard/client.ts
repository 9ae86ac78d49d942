/** A client of one standard resource's 8 operations, its recycle bin, export and history against a running app, and the seeds of its sample records. */
import { isDeepStrictEqual } from 'node:util';
import { ResourceSpec } from '../resource-table';
import { TestApp } from '../test-app';
import { Claims } from '../tokens';
import type { Json } from '../json';
import { exportFile } from '../export-files';

/** Seeds in creation order are also in ascending string order (s001 < s002 < ...). */
let counter = 0;
export const seed = (): string => `s${String(++counter).padStart(3, '0')}`;

export const pick = (o: Json, fields: string[]): Json => Object.fromEntries(fields.filter((f) => o[f] !== undefined).map((f) => [f, o[f]]));
const query = (name: string, values: string[]): string => values.map((v) => `${name}=${encodeURIComponent(v)}`).join('&');

/** Operations of one resource against one running app. */
export function client(getApp: () => TestApp, r: ResourceSpec) {
  const P = `${r.prefix}/${r.segment}`;
  const api = {
    P,
    save: (body: unknown, claims?: Claims) => getApp().post(`${P}/save`, body, claims),
    update: (body: unknown, claims?: Claims) => getApp().put(`${P}/updateById`, body, claims),
    getById: (id: string, claims?: Claims) => getApp().get(`${P}/getById?${query('id', [id])}`, claims),
    list: (body: unknown, claims?: Claims) => getApp().post(`${P}/list`, body, claims),
    page: (body: unknown, claims?: Claims) => getApp().post(`${P}/page`, body, claims),
    countRaw: (body: unknown, claims?: Claims) => getApp().post(`${P}/count`, body, claims),
    removeById: (id: string, claims?: Claims) => getApp().del(`${P}/removeById?${query('id', [id])}`, claims),
    removeByIds: (ids: string[], claims?: Claims) => getApp().del(`${P}/removeByIds?${query('ids', ids)}`, claims),
    deletedPage: (body: unknown, claims?: Claims) => getApp().post(`${P}/deletedPage`, body, claims),
    restoreById: (id: string, claims?: Claims) => getApp().put(`${P}/restoreById?${query('id', [id])}`, undefined, claims),
    purgeByIds: (ids: string[], claims?: Claims) => getApp().del(`${P}/purgeByIds?${query('ids', ids)}`, claims),
    /** The file of P/export in the format `accept` asks for (test/support/export-files.ts reads it). */
    exportFile: (body: unknown = {}, accept?: string, claims?: Claims) => exportFile(getApp(), P, body, accept, claims),
    historyPage: (body: unknown, claims?: Claims) => getApp().post(`${P}/historyPage`, body, claims),
    async count(body: Json = {}, claims?: Claims): Promise<number> {
      const res = await api.countRaw(body, claims);
      expect(res).toMatchObject({ status: 200 });
      expect(typeof res.data).toBe('number');
      return res.data as number;
    },
    /** The live record with the body's key (without a key: with every field of the body), found through list (by its string filter fields). */
    async find(body: Json, claims?: Claims): Promise<Json | undefined> {
      const res = await api.list(
        pick(
          body,
          r.filterFields.filter((f) => typeof body[f] === 'string'),
        ),
        claims,
      );
      expect(res.status).toBe(200);
      const fields = r.keyFields.length
        ? r.keyFields
        : Object.keys(body).filter((k) => !(r.writeOnly ?? []).includes(k) && k !== 'tenantId');
      return (res.data as Json[]).find((x) => fields.every((k) => isDeepStrictEqual(x[k], body[k]))); // lists (e-mail addresses) compare by value
    },
    async stored(id: string, claims?: Claims): Promise<Json | null> {
      const res = await api.getById(id, claims);
      expect(res).toMatchObject({ status: 200 });
      return res.data as Json | null;
    },
    /** Saves a sample (plus overrides) and returns the stored record. */
    async create(s: string = seed(), overrides: Json = {}, claims?: Claims): Promise<Json> {
      const body = { ...r.sample(s), ...overrides };
      const res = await api.save(body, claims);
      expect(res).toMatchObject({ status: 200, data: true });
      const found = await api.find(body, claims);
      expect(found).toBeDefined();
      return found!;
    },
  };
  return api;
}

export type ResourceClient = ReturnType<typeof client>;
