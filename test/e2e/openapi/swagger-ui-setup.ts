/**
 * Swagger UI as a new API user meets it, on both services: a filter box, deep links and collapsed tags;
 * the Authorize dialog says where a token comes from; every query parameter has an example; page opens on
 * an unfiltered first page; and the save examples still save after the README's curl lines and a run of the
 * device simulator, so "Try it out" walks save → token → push on device-service.
 */
import { readFileSync } from 'node:fs';
import { DEVICE_API, registryPath } from '../../support/device-app';
import { serviceDocuments } from '../../support/openapi-documents';
import type { Json } from '../../support/json';
import { swaggerUiSample } from '../../support/openapi-walk';

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];
const operations = (doc: Json): { path: string; op: Json }[] =>
  Object.entries(doc.paths as Json).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => ({ path, op: item[m] })));
const saveBody = (doc: Json, path: string) =>
  swaggerUiSample(doc, doc.paths[path].post.requestBody.content['application/json'].schema) as Json;
const queryExample = (doc: Json, path: string, method: string, name: string) => {
  const p = doc.paths[path][method].parameters.find((x: Json) => x.name === name);
  return p.example ?? p.schema?.example;
};

/** The defaults scripts/device-simulator.sh registers (`SERVER_NO=${SERVER_NO:-...}`). */
function simulatorDefault(name: string): string {
  const match = new RegExp(`^${name}=\\$\\{${name}:-([^}]+)\\}`, 'm').exec(readFileSync('scripts/device-simulator.sh', 'utf8'));
  if (!match) throw new Error(`scripts/device-simulator.sh sets no default ${name}`);
  return match[1];
}

/** The body of the README's curl line that saves a data dictionary entry. */
function readmeDataDictionarySave(): Json {
  const match = /data-dictionary\/save \\\n.*\n\s*-d '([^']+)'/.exec(readFileSync('README.md', 'utf8'));
  if (!match) throw new Error('README.md has no data-dictionary/save curl line');
  return JSON.parse(match[1]);
}

describe('Swagger UI setup', () => {
  const { docs, ...apps } = serviceDocuments();
  const http = (service: string) => (service === 'main-service' ? apps.main() : apps.device()).http();

  it('offers a filter box, deep links and collapsed tags, and keeps the token across reloads (both services)', async () => {
    for (const service of Object.keys(docs)) {
      const init = (await http(service).get(`/${service}/swagger-ui/swagger-ui-init.js`)).text;
      // the options, then the plugins as page expressions (NestJS writes them as text): its default and the tag filter
      const [, json, plugins] = /"customOptions": (\{[^}]*?),\s*"plugins": \[([^\]]*)\]\s*\}/.exec(init) ?? [];
      const options = JSON.parse(`${json ?? '{'}}`);
      expect({ service, options, plugins: plugins?.split(',').map((p) => p.trim()) }).toEqual({
        service,
        options: { persistAuthorization: true, filter: true, deepLinking: true, docExpansion: 'none' },
        plugins: ['SwaggerUIBundle.plugins.DownloadUrl', 'window.backOfficeTagFilter'],
      });
    }
  });

  it('serves the tag filter plugin as a script of the Swagger UI page, before Swagger UI sets up (both services)', async () => {
    for (const service of Object.keys(docs)) {
      const page = (await http(service).get(`/${service}/swagger-ui/`).redirects(1)).text;
      const [init, plugin] = [page.indexOf('swagger-ui-init.js'), page.indexOf('window.backOfficeTagFilter = function')];
      expect({ service, init: init > 0, plugin: plugin > init }).toEqual({ service, init: true, plugin: true });
    }
  });

  it('names tags a deep link can address: no "/", which Swagger UI splits the link at (both services)', () => {
    for (const [service, doc] of Object.entries(docs)) {
      const tags = [...new Set(operations(doc).flatMap(({ op }) => op.tags as string[]))];
      expect({ service, unaddressable: tags.filter((tag) => tag.includes('/')) }).toEqual({ service, unaddressable: [] });
      expect(tags).toContain(service === 'main-service' ? 'configuration: data-dictionary' : 'device: data-acquisition-device (registry)');
    }
  });

  it('says in the Authorize dialog how to get a token, for development and production', () => {
    for (const doc of Object.values(docs)) {
      const description = doc.components.securitySchemes.bearer.description;
      expect(description).toContain('`npm run --silent token -- --tenant acme --user alice --roles administrator`');
      expect(description).toContain('identity provider');
    }
  });

  it('gives every query parameter an example', () => {
    const missing = Object.values(docs).flatMap((doc) =>
      operations(doc).flatMap(({ path, op }) =>
        (op.parameters ?? [])
          .filter((p: Json) => p.in === 'query' && p.example === undefined && p.schema?.example === undefined)
          .map((p: Json) => `${path} ${p.name}`),
      ),
    );
    expect(missing).toEqual([]);
  });

  it('opens every page operation on the unfiltered first page, then offers the example of every field', async () => {
    const pages = Object.values(docs).flatMap((doc) => operations(doc).filter(({ path }) => path.endsWith('/page')));
    expect(pages.length).toBeGreaterThan(30);
    for (const { path, op } of pages) {
      const examples = op.requestBody.content['application/json'].examples;
      expect({ path, names: Object.keys(examples), first: examples.firstPage.value }).toEqual({
        path,
        names: ['firstPage', 'everyField'],
        first: { current: 1, pageSize: 10 },
      });
    }
    // the first page lists what the README's curl line saved; every field's example finds nothing of it
    await apps.main().post('/main-service/system-api/configuration/data-dictionary/save', readmeDataDictionarySave());
    const page = '/main-service/system-api/configuration/data-dictionary/page';
    const examples = docs['main-service'].paths[page].post.requestBody.content['application/json'].examples;
    expect((await apps.main().post(page, examples.firstPage.value)).extraData).toMatchObject({ total: 1 });
    expect((await apps.main().post(page, examples.everyField.value)).extraData).toMatchObject({ total: 0 });
  });

  it('saves the data dictionary examples after the README saved its own (no 422)', async () => {
    const doc = docs['main-service'];
    await apps.main().post('/main-service/system-api/configuration/data-dictionary/save', readmeDataDictionarySave());
    for (const resource of ['data-dictionary-type', 'data-dictionary', 'data-dictionary-map']) {
      const path = `/main-service/system-api/configuration/${resource}/save`;
      expect({ resource, status: (await apps.main().post(path, saveBody(doc, path))).status }).toEqual({ resource, status: 200 });
    }
  });

  it('saves the registry examples after a device simulator run, and their numbers and secret get a token and push', async () => {
    const doc = docs['device-service'];
    await apps.device().register('server', simulatorDefault('SERVER_NO'), simulatorDefault('SECRET'));
    await apps.device().register('device', simulatorDefault('DEVICE_NO'), simulatorDefault('SECRET'));
    for (const kind of ['server', 'device'] as const) {
      const path = `${registryPath(kind)}/save`;
      expect({ kind, status: (await apps.device().post(path, saveBody(doc, path))).status }).toEqual({ kind, status: 200 });
    }
    const tokenCall = `${DEVICE_API}/getGenerationTokenKeyByDataAcquisitionDeviceNo`;
    const no = queryExample(doc, tokenCall, 'get', 'dataAcquisitionDeviceNo');
    const issued = await apps.device().call('get', tokenCall, {
      dataAcquisitionDeviceNo: no,
      secret: queryExample(doc, tokenCall, 'get', 'secret'),
    });
    expect(issued).toMatchObject({ status: 200, data: { token: expect.any(String) } });
    const push = `${DEVICE_API}/pushInfoByDataAcquisitionDeviceNo`;
    expect(queryExample(doc, push, 'post', 'dataAcquisitionDeviceNo')).toBe(no);
    const body = swaggerUiSample(doc, doc.paths[push].post.requestBody.content['application/json'].schema);
    expect(await apps.device().call('post', push, { dataAcquisitionDeviceNo: no, token: issued.data.token }, body)).toMatchObject({
      status: 200,
    });
  });
});
