import { mkdirSync } from 'node:fs';
import { Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { serveDemo } from '../../scripts/demo-widget';
import { launchChromium } from './support/chromium';
import { FakeWidgetApi, startFakeWidgetApi } from './support/fake-widget-api';

const SCREENSHOT_DIR = join(tmpdir(), 'console-api-browser-tests');
const WAIT_MS = 5000;

/** The log's bubbles as the visitor sees them (Playwright's CSS locators enter open shadow roots). */
const bubbles = (page: Page) =>
  page.locator('console-chat-widget .log .bubble:not(.greeting)').allTextContents();

/** The element with focus, looked up through the widget's shadow root. */
const focused = (page: Page) =>
  page.evaluate<string>(`(() => {
    const host = document.querySelector('console-chat-widget');
    const inner = host && host.shadowRoot ? host.shadowRoot.activeElement : null;
    return inner ? inner.className : (document.activeElement ? document.activeElement.tagName : '');
  })()`);

/**
 * widget.js against a fake of its API, for what the application does not send yet: a reply
 * streamed in `message.delta` pieces ("typing…", then the growing bubble, then the final message).
 * The conversation itself, on the real application, is widget-app.browser-spec.ts.
 */
describe('widget.js in a browser, against a fake widget API (streamed reply pieces)', () => {
  let api: FakeWidgetApi | undefined;
  let site: Server | undefined;
  let siteUrl = '';
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];

  async function openPage(width: number, height: number): Promise<Page> {
    const context = await browser!.newContext({ viewport: { width, height } });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(siteUrl);
    await page.locator('console-chat-widget .launcher').waitFor({ timeout: WAIT_MS });
    return page;
  }

  beforeAll(async () => {
    api = await startFakeWidgetApi();
    site = await serveDemo({ apiBase: api.url, key: api.key, port: 0 });
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    api.allowOrigin(siteUrl.replace(/\/$/, ''));
    browser = await launchChromium();
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await api?.close();
  });

  it('opens with the keyboard, sends, streams the reply, keeps history over a reload, and gives another browser its own visitor', async () => {
    const page = await openPage(1280, 800);
    const launcher = page.locator('console-chat-widget .launcher');
    expect(await launcher.getAttribute('aria-expanded')).toBe('false');
    await launcher.focus();
    await page.keyboard.press('Enter');
    const panel = page.locator('console-chat-widget [role="dialog"]');
    await panel.waitFor({ state: 'visible' });
    expect(await launcher.getAttribute('aria-expanded')).toBe('true');
    expect(await focused(page)).toBe('input');
    await page.locator('console-chat-widget .title', { hasText: 'Fake Shop' }).waitFor();
    expect(await panel.getAttribute('aria-label')).toBe('Fake Shop');
    expect(await page.locator('console-chat-widget .greeting').textContent()).toBe(
      'Hi! Ask us anything.',
    );
    const box = (await panel.boundingBox())!;
    expect(Math.round(box.width)).toBe(380);
    expect(Math.round(box.height)).toBe(560);

    // Shift+Enter is a new line; Enter sends.
    await page.keyboard.type('hello <b>there</b>');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    await page.keyboard.press('Enter');
    const sent = 'hello <b>there</b>\nsecond line';
    await page.locator('console-chat-widget .typing', { hasText: 'typing…' }).waitFor();
    await page
      .locator('console-chat-widget .bubble.ai.sent', { hasText: `Echo: ${sent}` })
      .waitFor({ timeout: WAIT_MS });
    expect(await bubbles(page)).toEqual([sent, `Echo: ${sent}`]);
    expect(await page.locator('console-chat-widget .log b').count()).toBe(0);
    expect(await page.locator('console-chat-widget .typing').textContent()).toBe('');

    await page.keyboard.type('an operator please');
    await page.keyboard.press('Enter');
    await page
      .locator('console-chat-widget .bubble.operator', { hasText: 'An operator here.' })
      .waitFor({ timeout: WAIT_MS });
    expect(await page.locator('console-chat-widget .bubble.operator .name').textContent()).toBe(
      'Ada',
    );

    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    expect(await focused(page)).toBe('launcher');

    await page.reload();
    await page.locator('console-chat-widget .launcher').click();
    await page
      .locator('console-chat-widget .bubble', { hasText: 'An operator here.' })
      .waitFor({ timeout: WAIT_MS });
    expect(await bubbles(page)).toEqual([
      sent,
      `Echo: ${sent}`,
      'an operator please',
      'Ada' + 'An operator here.',
    ]);

    const other = await openPage(1280, 800);
    await other.locator('console-chat-widget .launcher').click();
    await other.locator('console-chat-widget .greeting').waitFor();
    await other.waitForTimeout(500);
    expect(await bubbles(other)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
