/**
 * The translations for browsers loaded by a real browser: headless Chromium runs i18next with i18next-http-backend
 * (their browser bundles) against the built embedded server, as a web client does; a second load revalidates with
 * the browser's cached ETag and is answered 304.
 */
import { join, resolve } from 'node:path';
import type { Browser, HTTPResponse } from 'puppeteer-core';
import { buildIfStale } from '../../scripts/build-if-stale';
import { bearer } from '../support/tokens';
import { BuiltServer, startBuiltServer } from './built-server';
import { launchChromium } from './chromium';

jest.setTimeout(300_000);

const MODULES = resolve(__dirname, '../../node_modules');
const LOAD = '/main-service/main-api/v1/general/configuration/translation';
const SAVE = '/main-service/system-api/configuration/translation/save';

let server: BuiltServer;
let browser: Browser;

beforeAll(async () => {
  buildIfStale({ quiet: true });
  server = await startBuiltServer();
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function save(tenantId: string, entry: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${server.base}${SAVE}`, {
    method: 'POST',
    headers: { Authorization: bearer({ tenantId, sub: 'translator' }), 'Content-Type': 'application/json' },
    body: JSON.stringify({ language: 'de-DE', ...entry }),
  });
  expect(await response.json()).toMatchObject({ status: 200, data: true });
}

it("i18next in Chromium shows the tenant's strings over the default tenant's, and a reload is a 304", async () => {
  await save('default', { namespace: 'shop', key: 'cart.title', value: 'Warenkorb' });
  await save('default', { namespace: 'shop', key: 'cart.empty', value: 'Der Warenkorb ist leer' });
  await save('acme', { namespace: 'shop', key: 'cart.title', value: 'Ihr ACME-Warenkorb' });

  const page = await browser.newPage();
  const loads: number[] = [];
  page.on('response', (response: HTTPResponse) => {
    if (response.url().includes(`${LOAD}/`)) loads.push(response.status());
  });
  try {
    // a page of the service's own origin, as a web client served beside the API
    await page.goto(`${server.base}/main-service/health/live`);
    await page.addScriptTag({ path: join(MODULES, 'i18next/dist/umd/i18next.min.js') });
    await page.addScriptTag({ path: join(MODULES, 'i18next-http-backend/i18nextHttpBackend.min.js') });
    const shown = (cache: 'default' | 'no-cache') =>
      page.evaluate(
        async (loadPath, cache) => {
          const w = globalThis as unknown as { i18next: { createInstance(): any }; i18nextHttpBackend: unknown }; // eslint-disable-line @typescript-eslint/no-explicit-any
          const i18n = w.i18next.createInstance();
          await i18n.use(w.i18nextHttpBackend).init({
            lng: 'de-DE',
            fallbackLng: false,
            ns: ['shop'],
            defaultNS: 'shop',
            keySeparator: false,
            backend: { loadPath, requestOptions: { cache } },
          });
          return [i18n.t('cart.title'), i18n.t('cart.empty'), i18n.t('cart.unknown')];
        },
        `${LOAD}/acme/{{lng}}/{{ns}}.json`,
        cache,
      );
    expect(await shown('default')).toEqual(['Ihr ACME-Warenkorb', 'Der Warenkorb ist leer', 'cart.unknown']);
    const first = loads.splice(0);
    // revalidated with the cached ETag: answered 304, the strings from the browser's cache
    expect(await shown('no-cache')).toEqual(['Ihr ACME-Warenkorb', 'Der Warenkorb ist leer', 'cart.unknown']);
    expect([new Set(first), new Set(loads)]).toEqual([new Set([200]), new Set([304])]);
  } finally {
    await page.close();
  }
});
