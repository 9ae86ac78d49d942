/** A user's first call from Swagger UI (swagger-ui-dist 5's DOM): Authorize with a token, then "Try it out" and "Execute". */
import type { Page } from 'puppeteer-core';

/** What Swagger UI shows after "Execute": the status column, the response body's text and the curl line it sent. */
export interface ShownResponse {
  status: string;
  body: string;
  curl: string;
}

/**
 * Presses Authorize, pastes `token` as the Bearer value, applies it and closes the dialog. The dialog's controls
 * through locators, which wait until an element is visible and still. Authorize itself by the button's own click():
 * the page has scrolled to the deep-linked operation, and Swagger UI's scrolling can take the button away from
 * under a pointer click.
 */
export async function authorize(page: Page, token: string): Promise<void> {
  await page.$eval('.auth-wrapper .btn.authorize', (button) => (button as { click(): void }).click());
  // typed key by key, as a user does: Swagger UI's input keeps its value in React state, which a set value skips
  await (await page.locator('#auth-bearer-value').waitHandle()).type(token);
  await page.locator('button[aria-label="Apply credentials"]').click();
  await page.locator('.auth-btn-wrapper .btn-done').click();
  await page.waitForSelector('.dialog-ux', { hidden: true });
}

/** "Try it out" then "Execute" in the one expanded operation, with its example body; resolves to what it shows. */
export async function tryItOut(page: Page): Promise<ShownResponse> {
  const block = (await page.waitForSelector('.opblock.is-open'))!;
  await page.locator('.opblock.is-open .try-out__btn').click();
  await page.locator('.opblock.is-open .btn.execute').click();
  const body = (await block.waitForSelector('.live-responses-table .response-col_description .highlight-code pre', { timeout: 30_000 }))!;
  return {
    status: await block.$eval('.live-responses-table .response .response-col_status', (cell) => cell.textContent?.trim() ?? ''),
    body: await body.evaluate((pre) => pre.textContent ?? ''),
    curl: await block.$eval('.curl-command', (command) => command.textContent ?? ''),
  };
}
