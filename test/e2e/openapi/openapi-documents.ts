/**
 * Both OpenAPI documents as a Swagger UI user and a code generator meet them (Redocly's recommended rules,
 * without a problem of any severity, are checked by scripts/check-openapi.sh): every operation documents its failure answers (HTTP ones as responses, body-status
 * ones as examples of the 200 envelope), no text points to documents a client does not have, save
 * examples can be tried repeatedly, and each tag lists its operations in one order.
 */
import { serviceDocuments } from '../../support/openapi-documents';
import type { Json } from '../../support/json';

// an OpenAPI document is walked as plain JSON
interface Op {
  key: string;
  path: string;
  method: string;
  op: Json;
}

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];
const operations = (doc: Json): Op[] =>
  Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ key: `${method.toUpperCase()} ${path}`, path, method, op: item[method] })),
  );
const bodyExamples = (op: Json): Json => op.responses?.['200']?.content?.['application/json']?.examples ?? {};
const bodyStatuses = (op: Json): number[] =>
  Object.values(bodyExamples(op))
    .map((e: Json) => e.value?.status)
    .filter((s) => s !== 200);
const httpStatuses = (op: Json): number[] => Object.keys(op.responses ?? {}).map(Number);
const isAuthenticated = (op: Json) => (op.security ?? []).some((s: Json) => 'bearer' in s);
const lastSegment = (path: string) => path.split('/').pop()!;

describe('OpenAPI documents', () => {
  const { docs, each } = serviceDocuments();

  it(
    'no text points to documents a client does not have',
    each((service, doc) => {
      const text = JSON.stringify(doc);
      // the words first, then their surroundings: a pattern that starts with `.{0,40}` is tried at every character
      const found = [...text.matchAll(/DESIGN|§|\.\.\/shared|spec file/g)].map((m) => text.slice(Math.max(0, m.index - 40), m.index + 50));
      expect({ service, found }).toEqual({ service, found: [] });
    }),
  );

  it(
    'every operation documents its failures: 401 (and 403 with a permission) where a token is needed, 413/400/1003/1004 with a body, 1002 with required query parameters, 409 with revision',
    each((service, doc) => {
      const gaps: string[] = [];
      for (const { key, op } of operations(doc)) {
        const http = httpStatuses(op);
        const body = bodyStatuses(op);
        const need = (ok: boolean, what: string) => !ok && gaps.push(`${key}: ${what}`);
        need(
          http.some((s) => s >= 400 && s < 500),
          'a 4xx response',
        );
        if (isAuthenticated(op)) need(http.includes(401), '401');
        if (op['x-permission']) need(http.includes(403), '403');
        if (op.requestBody) {
          need(http.includes(413), '413');
          need(body.includes(400), 'example 400');
        }
        if (op.requestBody?.content?.['application/json']) for (const s of [1003, 1004]) need(body.includes(s), `example ${s}`);
        if ((op.parameters ?? []).some((p: Json) => p.in === 'query' && p.required)) need(body.includes(1002), 'example 1002');
        if (lastSegment(key) === 'updateById') need(body.includes(409), 'example 409');
        // failure examples (a success that is not the envelope has no status)
        for (const [name, example] of Object.entries(bodyExamples(op)) as [string, Json][]) {
          if (name !== 'success' && example.value.status !== 200)
            need(
              example.value.path === key.split(' ')[1] && typeof example.value.error === 'string',
              'failure example with its path and error',
            );
        }
        for (const [status, response] of Object.entries(op.responses as Json)) {
          if (Number(status) >= 400 && !response.$ref)
            need(
              response.content?.['application/json']?.schema?.$ref === '#/components/schemas/ErrorEnvelope',
              `${status} as the envelope`,
            );
        }
        if (!isAuthenticated(op)) need(!http.includes(403) || (op.security ?? []).length > 0, 'no 403 on an anonymous operation');
      }
      expect({ service, gaps }).toEqual({ service, gaps: [] });
    }),
  );

  it('documents 429 on the rate-limited anonymous translation/saveMissing', () => {
    const op = docs['main-service'].paths['/main-service/system-api/configuration/translation/saveMissing'].post;
    expect(httpStatuses(op)).toContain(429);
    expect(op.responses['429'].content['application/json'].example).toMatchObject({
      status: 429,
      path: '/main-service/system-api/configuration/translation/saveMissing',
      data: null,
    });
  });

  it('answers 422 on saves and updates of resources with a business key only', () => {
    const main422 = operations(docs['main-service']).filter(({ op }) => bodyStatuses(op).includes(422));
    const keyedSave = `POST /main-service/system-api/configuration/data-dictionary/save`;
    expect(main422.map((o) => o.key)).toContain(keyedSave);
    expect(main422.map((o) => o.key)).toContain(`PUT /main-service/system-api/configuration/data-dictionary/updateById`);
    expect(main422.map((o) => o.key)).not.toContain(`POST /main-service/system-api/message/email/save`);
    const example = Object.values(bodyExamples(main422.find((o) => o.key === keyedSave)!.op)).find(
      (e: Json) => e.value.status === 422,
    ) as Json;
    expect(example.value.error).toBe('Data dictionary exists');
  });

  it(
    'anonymous operations carry an explicit empty security; the rest name their scheme',
    each((service, doc) => {
      const missing = operations(doc)
        .filter(({ op }) => !Array.isArray(op.security))
        .map((o) => o.key);
      expect({ service, missing }).toEqual({ service, missing: [] });
      expect(doc.servers?.length).toBeGreaterThan(0);
    }),
  );

  it(
    'save bodies carry no fixed identifier; updateById shows a revision a fresh record has (1)',
    each((service, doc) => {
      const resolve = (s: Json): Json => (s?.$ref ? resolve(doc.components.schemas[s.$ref.split('/').pop()]) : s);
      const props = (s: Json): Json => Object.assign({}, ...(resolve(s).allOf ?? []).map(props), resolve(s).properties ?? {});
      for (const { key, op } of operations(doc)) {
        const body = op.requestBody?.content?.['application/json']?.schema;
        if (!body) continue;
        const p = props(body);
        if (lastSegment(key) === 'save') {
          const fixed = Object.entries(p).filter(
            ([name, s]) =>
              /Id$/.test(name) && !name.endsWith('No') && s.example != null && key.includes(`/${kebab(name.slice(0, -2))}/save`),
          );
          expect({ key, fixed }).toEqual({ key, fixed: [] });
        }
        if (lastSegment(key) === 'updateById') expect({ key, revision: p.revision?.example ?? 1 }).toEqual({ key, revision: 1 });
      }
    }),
  );

  it(
    'lists the operations of each tag in one order: save, getById, page, list, count, updateById, removeById, removeByIds, then importList, importStatus, listCache, saveOrUpdate, saveBatch and the own calls',
    each((service, doc) => {
      const order = [
        'save',
        'getById',
        'page',
        'list',
        'count',
        'updateById',
        'removeById',
        'removeByIds',
        'importList',
        'importStatus',
        'listCache',
        'saveOrUpdate',
        'saveBatch',
      ];
      const byTag = new Map<string, string[]>();
      for (const { path, op } of operations(doc))
        byTag.set(op.tags?.[0] ?? '', [...(byTag.get(op.tags?.[0] ?? '') ?? []), lastSegment(path)]);
      for (const [tag, names] of byTag) {
        const standard = names.filter((n) => order.includes(n));
        const expected = order.filter((n) => standard.includes(n));
        expect({ service, tag, names: names.slice(0, standard.length) }).toEqual({ service, tag, names: expected });
      }
    }),
  );
});

/** emailTemplate → email-template. */
function kebab(camel: string): string {
  return camel.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
