import type { Browser, Page } from 'playwright-core';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { launchChromium } from './support/chromium';

/** Runs in the page before its own scripts: every blocked load becomes a console error. */
const REPORT_CSP_VIOLATIONS = `document.addEventListener('securitypolicyviolation', (event) =>
  console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI));`;

describe('the docs page in a browser, with its security headers', () => {
  let t: TestApp | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  const problems: string[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') {
        problems.push(`console: ${message.text()}`);
      }
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.addInitScript({ content: REPORT_CSP_VIOLATIONS });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders every operation from the served document, with nothing blocked by the Content-Security-Policy', async () => {
    const response = await page!.goto(`${t!.url}${API}/docs`, { waitUntil: 'load' });
    expect(response!.status()).toBe(200);
    const headers = response!.headers();
    expect(headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(headers['x-content-type-options']).toBe('nosniff');

    await page!.waitForSelector('.opblock', { timeout: 15_000 });
    const title = await page!.textContent('.info .title');
    expect(title).toMatch(/Console API/);
    const document = (await (await fetch(`${t!.url}${API}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.values(document.paths).reduce(
      (count, methods) => count + Object.keys(methods).length,
      0,
    );
    expect(await page!.locator('.opblock').count()).toBe(operations);

    // Opening an operation shows its parameters and responses (Swagger UI's own scripts at work).
    await page!.locator('.opblock-summary').first().click();
    await page!.waitForSelector('.opblock-body .responses-wrapper', { timeout: 5_000 });
    expect(problems).toEqual([]);
  });
});
