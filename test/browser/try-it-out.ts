/** A user's first call from Swagger UI (swagger-ui-dist 5's DOM): Authorize with a token, then "Try it out" and "Execute". */
import type { Page } from 'puppeteer-core';

/** What Swagger UI shows after "Execute": the status column, the response body's text and the curl line it sent. */
export interface ShownResponse {
  status: string;
  body: string;
  curl: string;
}

/** Presses Authorize, pastes `token` as the Bearer value, applies it and closes the dialog. */
export async function authorize(page: Page, token: string): Promise<void> {
  await page.click('.auth-wrapper .btn.authorize');
  await page.waitForSelector('#auth-bearer-value');
  await page.type('#auth-bearer-value', token);
  await page.click('button[aria-label="Apply credentials"]');
  await page.click('.auth-btn-wrapper .btn-done');
  await page.waitForSelector('.dialog-ux', { hidden: true });
}

/** "Try it out" then "Execute" in the one expanded operation, with its example body; resolves to what it shows. */
export async function tryItOut(page: Page): Promise<ShownResponse> {
  const block = (await page.waitForSelector('.opblock.is-open'))!;
  await (await block.waitForSelector('.try-out__btn'))!.click();
  await (await block.waitForSelector('.btn.execute'))!.click();
  const body = (await block.waitForSelector('.live-responses-table .response-col_description .highlight-code pre', { timeout: 30_000 }))!;
  return {
    status: await block.$eval('.live-responses-table .response .response-col_status', (cell) => cell.textContent?.trim() ?? ''),
    body: await body.evaluate((pre) => pre.textContent ?? ''),
    curl: await block.$eval('.curl-command', (command) => command.textContent ?? ''),
  };
}
