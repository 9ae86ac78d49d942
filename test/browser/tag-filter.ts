/**
 * Swagger UI's filter box as a user types in it (swagger-ui-dist 5's DOM): `input.operation-filter-input`; the tags
 * it keeps are the `h3.opblock-tag` headings (`data-tag`), the plugin's empty state is `h3.no-tag-matches`.
 */
import type { Page } from 'puppeteer-core';

/** What the page shows for a phrase: the tags listed, or the text that none matches. */
export interface FilterOutcome {
  tags: string[];
  message: string | null;
}

/** The little of the page read below (the project compiles without TypeScript's DOM library). */
interface PageElement {
  dataset: Record<string, string | undefined>;
  textContent: string | null;
}
interface PageGlobals {
  document: { querySelector(selector: string): PageElement | null; querySelectorAll(selector: string): Iterable<PageElement> };
}

/** Whether the page shows the outcome of `phrase` yet: the empty state, or only tags that contain it in any case. */
const settled = (phrase: string) => {
  const { document } = globalThis as unknown as PageGlobals;
  if (document.querySelector('h3.no-tag-matches')) return true;
  const tags = [...document.querySelectorAll('h3.opblock-tag')].map((h) => h.dataset.tag ?? '');
  return tags.length > 0 && tags.every((tag) => tag.toLowerCase().includes(phrase.trim().toLowerCase()));
};

const shown = (): FilterOutcome => {
  const { document } = globalThis as unknown as PageGlobals;
  return {
    tags: [...document.querySelectorAll('h3.opblock-tag')].map((h) => h.dataset.tag ?? ''),
    message: document.querySelector('h3.no-tag-matches')?.textContent ?? null,
  };
};

/** Empties the filter box and types `phrase` key by key, as a user does; resolves to what the page then shows. */
export async function filterTags(page: Page, phrase: string): Promise<FilterOutcome> {
  const input = await page.locator('input.operation-filter-input').waitHandle();
  await input.click({ count: 3 });
  await page.keyboard.press('Backspace');
  await input.type(phrase);
  // a phrase no tag contains settles at once on the empty state; any other once the list is filtered
  await page.waitForFunction(settled, { timeout: 30_000, polling: 100 }, phrase);
  return page.evaluate(shown);
}
