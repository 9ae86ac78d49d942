import { finaliseDocument } from './document';

describe('finaliseDocument', () => {
  const op = (tag: string) => ({ post: { tags: [tag], responses: { 200: { description: 'OK' } } } });

  it("the standard set, then the library's optional calls, then a resource's own calls in the order it declares them", () => {
    const declared = ['/a/zeta', '/a/listCache', '/a/page', '/b/save', '/a/alpha', '/a/save', '/a/importList', '/a/mergeAll'];
    const document = finaliseDocument({
      openapi: '3.0.0',
      paths: Object.fromEntries(declared.map((path) => [path, op(path.split('/')[1])])),
    });
    expect(Object.keys(document.paths)).toEqual([
      '/a/save',
      '/a/page',
      '/a/importList',
      '/a/listCache',
      '/a/zeta',
      '/a/alpha',
      '/a/mergeAll',
      '/b/save',
    ]);
  });

  it("the failure envelope's example path is one of the document's own (its first save)", () => {
    const document = finaliseDocument({ openapi: '3.0.0', paths: { '/svc/a/page': op('a'), '/svc/a/save': op('a') } });
    expect(document.components.schemas.ErrorEnvelope.properties.path.example).toBe('/svc/a/save');
  });
});
