/**
 * Swagger UI's deep links (`#/<tag>/<operationId>`, `#/<tag>`) as a browser follows them. swagger-ui-dist 5
 * reads the link in its on-load hook (`configsActions.loaded`, wrapped by its deep-linking plugin:
 * `parseDeepLinkHash(decodeURIComponent(location.hash))`, which splits the link at every "/") and never on a
 * later hash change. Its DOM: an operation is `div.opblock` with id `escapeDeepLinkPath("operations-<tag>-<operationId>")`
 * and class `is-open` when expanded; a tag is `h3.opblock-tag` with `data-tag` and `data-is-open`.
 */
import type { Page } from 'puppeteer-core';

export interface DeepLink {
  service: string;
  tag: string;
  /** Absent for a link to the tag alone. */
  operationId?: string;
}

/** How long a page may take to load Swagger UI and list the tags (it parses the whole document first). */
const LOAD_TIMEOUT_MS = 60_000;
/** How long an operation or tag that Swagger UI marked shown may take to render expanded. */
const RENDER_TIMEOUT_MS = 30_000;

/** The link Swagger UI writes: each part encoded, joined by "/". */
export const hashOf = ({ tag, operationId }: DeepLink) =>
  `#/${[tag, operationId]
    .filter((part): part is string => part !== undefined)
    .map(encodeURIComponent)
    .join('/')}`;

export const urlOf = (base: string, link: DeepLink) => `${base}/${link.service}/swagger-ui/${hashOf(link)}`;

/** The little of the page the functions below read (the project compiles without TypeScript's DOM library). */
interface PageElement {
  classList: { contains(name: string): boolean };
  dataset: Record<string, string | undefined>;
}
interface PageGlobals {
  document: { getElementById(id: string): PageElement | null; querySelectorAll(selector: string): Iterable<PageElement> };
  CSS: { escape(text: string): string };
  history: { replaceState(state: null, unused: string, url: string): void };
  /** The Swagger UI instance NestJS's swagger-ui-init.js keeps. */
  ui: {
    configsActions: { loaded(): void };
    layoutActions: { show(key: string[], shown: boolean): void };
    layoutSelectors: { isShown(key: string[], fallback: boolean): boolean };
  };
}

// The functions below run in the page (serialized by puppeteer), so each is self-contained.

/** Swagger UI's layout key of the link: what its deep linking marks shown. */
const shownKey = (tag: string, operationId?: string) =>
  operationId === undefined ? ['operations-tag', tag] : ['operations', tag, operationId];

/** Whether Swagger UI marked the link's operation (or tag) shown. */
const markedShown = (tag: string, operationId?: string) => {
  const { ui } = globalThis as unknown as PageGlobals;
  const key = operationId === undefined ? ['operations-tag', tag] : ['operations', tag, operationId];
  return Boolean(ui.layoutSelectors.isShown(key, false));
};

/**
 * Whether the operation's block (or the tag's section) is rendered expanded. escapeDeepLinkPath: whitespace
 * becomes `%20`, then `_`, and the text goes through CSS.escape; the id attribute holds the escaped text.
 */
const renderedOpen = (tag: string, operationId?: string) => {
  const { document, CSS } = globalThis as unknown as PageGlobals;
  if (operationId === undefined)
    return [...document.querySelectorAll('h3.opblock-tag')].some((h) => h.dataset.tag === tag && h.dataset.isOpen === 'true');
  const id = CSS.escape(`operations-${tag}-${operationId}`.trim().replace(/\s/g, '%20').replace(/%20/g, '_'));
  return document.getElementById(id)?.classList.contains('is-open') === true;
};

/** Collapses what `keys` name, puts `hash` in the address bar (no navigation) and runs Swagger UI's on-load hook again. */
const replayLoad = (hash: string, keys: string[][]) => {
  const { ui, history } = globalThis as unknown as PageGlobals;
  for (const key of keys) ui.layoutActions.show(key, false);
  history.replaceState(null, '', hash);
  ui.configsActions.loaded();
};

/** Whether Swagger UI marked the link shown and then rendered it expanded (a link it did not read fails at once). */
async function cameUpExpanded(page: Page, { tag, operationId }: DeepLink): Promise<boolean> {
  if (!(await page.evaluate(markedShown, tag, operationId))) return false;
  await page.waitForFunction(renderedOpen, { timeout: RENDER_TIMEOUT_MS, polling: 100 }, tag, operationId);
  return true;
}

/** Loads the link as a new document, as a link opened in a fresh tab is; tells whether it came up expanded. */
export async function opensInFreshPage(page: Page, base: string, link: DeepLink): Promise<boolean> {
  await page.goto('about:blank');
  await page.goto(urlOf(base, link));
  await page.waitForSelector('h3.opblock-tag', { timeout: LOAD_TIMEOUT_MS });
  return cameUpExpanded(page, link);
}

/** Loads the service's Swagger UI without a link, for opensOnLoadHook. */
export async function loadSwaggerUi(page: Page, base: string, service: string): Promise<void> {
  await page.goto(`${base}/${service}/swagger-ui/`);
  await page.waitForSelector('h3.opblock-tag', { timeout: LOAD_TIMEOUT_MS });
}

/**
 * In a page that loaded Swagger UI (loadSwaggerUi): what a fresh tab does with the link, without parsing the
 * document again (a second of CPU for main-service's): the link in the address bar, then Swagger UI's own on-load
 * hook. The link's own operation and tag and those `previous` opened are collapsed first, so only this link can open them.
 */
export async function opensOnLoadHook(page: Page, link: DeepLink, previous?: DeepLink): Promise<boolean> {
  const keys = [link, ...(previous ? [previous] : [])].flatMap(({ tag, operationId }) => [shownKey(tag), shownKey(tag, operationId)]);
  await page.evaluate(replayLoad, hashOf(link), keys);
  return cameUpExpanded(page, link);
}
