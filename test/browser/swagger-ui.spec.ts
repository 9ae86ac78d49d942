/**
 * Swagger UI of both services in headless Chromium (npm run test:browser: the built embedded server and Chromium).
 * Every operation's deep link `#/<tag>/<operationId>` and every tag's `#/<tag>` opens it expanded, as Swagger UI
 * reads a link on load; one operation of every tag also from a fresh page load, as a shared link opens in a new
 * tab; a user who authorizes with a token and runs "Try it out" on a page operation sees 200 and the envelope; and
 * the filter box finds tags in any case and by part of their name, and says so when no tag matches.
 */
import { availableParallelism } from 'node:os';
import type { Browser, Page } from 'puppeteer-core';
import { operations } from '../../libs/common/src/openapi/paths';
import { buildIfStale } from '../../scripts/build-if-stale';
import { bearer } from '../support/tokens';
import { BuiltServer, Service, SERVICES, startBuiltServer } from './built-server';
import { launchChromium } from './chromium';
import { DeepLink, loadSwaggerUi, opensInFreshPage, opensOnLoadHook, urlOf } from './deep-links';
import { filterTags } from './tag-filter';
import { authorize, tryItOut } from './try-it-out';

// Swagger UI parses main-service's whole document on each load and resolves it again for each operation it opens:
// CPU work that adds up to minutes for all the links on a busy two-core machine
jest.setTimeout(600_000);

/** Pages at work at once: Swagger UI's work is CPU work, so one per core. */
const PAGES = availableParallelism();

let server: BuiltServer;
let browser: Browser;

beforeAll(async () => {
  buildIfStale({ quiet: true });
  server = await startBuiltServer();
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const operationLinks = (service: Service): DeepLink[] =>
  [...operations(server.documents[service])].map(({ op }) => ({
    service,
    tag: op.tags[0] as string,
    operationId: op.operationId as string,
  }));

const tagLinks = (service: Service): DeepLink[] =>
  (server.documents[service].tags as { name: string }[]).map(({ name }) => ({ service, tag: name }));

/**
 * Checks the links on PAGES pages at once, each page made ready by `prepare` and then given links in turn with
 * the one it checked before; resolves to the URLs of the links that did not come up expanded.
 */
async function unopened(
  links: DeepLink[],
  opens: (page: Page, link: DeepLink, previous?: DeepLink) => Promise<boolean>,
  prepare: (page: Page) => Promise<void> = async () => undefined,
): Promise<string[]> {
  const failed: string[] = [];
  const queue = [...links];
  const work = async () => {
    const page = await browser.newPage();
    await prepare(page);
    let previous: DeepLink | undefined;
    for (let link = queue.shift(); link; previous = link, link = queue.shift())
      if (!(await opens(page, link, previous))) failed.push(urlOf(server.base, link));
    await page.close();
  };
  await Promise.all(Array.from({ length: Math.min(PAGES, links.length) }, work));
  return failed.sort();
}

describe('Swagger UI in a browser (built server, Chromium)', () => {
  it.each(SERVICES)("opens every operation and every tag of %s from its link, through Swagger UI's on-load hook", async (service) => {
    const links = [...operationLinks(service), ...tagLinks(service)];
    expect(links.length).toBeGreaterThan(service === 'main-service' ? 250 : 25);
    expect(await unopened(links, opensOnLoadHook, (page) => loadSwaggerUi(page, server.base, service))).toEqual([]);
  });

  it('opens the first operation of every tag, and each service by its first tag alone, from a fresh page load', async () => {
    const firstOfEachTag = SERVICES.flatMap((service) =>
      operationLinks(service).filter((link, i, all) => all.findIndex((other) => other.tag === link.tag) === i),
    );
    const tagAlone = SERVICES.map((service) => tagLinks(service)[0]);
    expect(firstOfEachTag.length).toBeGreaterThan(35);
    expect(await unopened([...firstOfEachTag, ...tagAlone], (page, link) => opensInFreshPage(page, server.base, link))).toEqual([]);
  });

  it('filters the tags in any case and by part of a tag, and says "No tag matches" rather than showing an empty spec', async () => {
    const page = await browser.newPage();
    await loadSwaggerUi(page, server.base, 'main-service');
    const names = (server.documents['main-service'].tags as { name: string }[]).map(({ name }) => name);
    const containing = (part: string) => names.filter((name) => name.toLowerCase().includes(part.toLowerCase()));
    const lower = await filterTags(page, 'email');
    const mixed = await filterTags(page, 'Email');
    const upperPart = await filterTags(page, 'MAIL');
    const none = await filterTags(page, 'No Such Tag');
    const cleared = await filterTags(page, ' ');
    await page.close();
    expect(containing('email').length).toBeGreaterThan(1);
    // Swagger UI lists the tags in view (and a few more); each one it lists must contain the phrase
    expect(lower).toEqual({ tags: expect.arrayContaining([containing('email')[0]]), message: null });
    expect(mixed).toEqual(lower);
    expect(upperPart.tags.length).toBeGreaterThanOrEqual(lower.tags.length);
    for (const tag of [...mixed.tags, ...upperPart.tags]) expect(containing('mail')).toContain(tag);
    expect(none).toEqual({ tags: [], message: 'No tag matches "No Such Tag"' });
    expect(cleared.message).toBeNull();
    expect(cleared.tags.length).toBeGreaterThan(mixed.tags.length);
  });

  it('authorizes with a pasted token, then "Try it out" on a data dictionary page shows 200 and the envelope', async () => {
    const page = await browser.newPage();
    const link = { service: 'main-service', tag: 'configuration: data-dictionary', operationId: 'dataDictionaryPage' };
    expect(await opensInFreshPage(page, server.base, link)).toBe(true);
    const token = bearer({ tenantId: 'browser', sub: 'swagger-ui' }).slice('Bearer '.length);
    await authorize(page, token);
    const shown = await tryItOut(page);
    await page.close();
    expect(shown.curl).toContain(`Authorization: Bearer ${token}`);
    expect(shown.status).toBe('200');
    expect(JSON.parse(shown.body)).toMatchObject({ status: 200, error: null, data: [], extraData: { current: 1, total: 0 } });
  });
});
