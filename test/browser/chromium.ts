/** Headless Chromium for the browser suites: puppeteer-core brings no browser, so CHROMIUM_PATH or Debian's /usr/bin/chromium. */
import { existsSync } from 'node:fs';
import puppeteer, { Browser } from 'puppeteer-core';

const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM;
  if (!existsSync(executablePath))
    throw new Error(`no Chromium at ${executablePath}: install it (apt-get install chromium) or set CHROMIUM_PATH`);
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start; --disable-dev-shm-usage: a
  // container's small /dev/shm would crash pages holding a large document
  return puppeteer.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}
