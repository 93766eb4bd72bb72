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

describe('widget.js in a browser, against a fake widget API', () => {
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
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'widget-1280.png') });

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

  it('after its stream is cut, comes back with a new ticket after the last message, missing nothing and showing nothing twice', async () => {
    const page = await openPage(1280, 800);
    await page.locator('console-chat-widget .launcher').click();
    await page.keyboard.type('before the cut');
    await page.keyboard.press('Enter');
    await page
      .locator('console-chat-widget .bubble.ai.sent', { hasText: 'Echo: before the cut' })
      .waitFor({ timeout: WAIT_MS });
    const token = await page.evaluate<string>(
      `localStorage.getItem('console-widget:${api!.key}:visitor')`,
    );
    const lastId = api!.messagesOf(token).at(-1)!.id;
    const requestsBefore = api!.streamRequests.length;

    expect(api!.dropStreams()).toBeGreaterThan(0);
    api!.operatorSays(token, 'Said while you were away.');
    await page
      .locator('console-chat-widget .bubble.operator', { hasText: 'Said while you were away.' })
      .waitFor({ timeout: WAIT_MS });
    expect(api!.streamRequests.slice(requestsBefore)[0]).toBe(lastId);

    api!.operatorSays(token, 'And live again.');
    await page
      .locator('console-chat-widget .bubble.operator', { hasText: 'And live again.' })
      .waitFor({ timeout: WAIT_MS });
    await page.waitForTimeout(300);
    expect(await bubbles(page)).toEqual([
      'before the cut',
      'Echo: before the cut',
      'AdaSaid while you were away.',
      'AdaAnd live again.',
    ]);
    expect(problems).toEqual([]);
  });

  it('fills a 360 px wide screen with the panel', async () => {
    const page = await openPage(360, 740);
    await page.locator('console-chat-widget .launcher').click();
    const panel = page.locator('console-chat-widget [role="dialog"]');
    await panel.waitFor({ state: 'visible' });
    const box = (await panel.boundingBox())!;
    expect(box).toEqual({ x: 0, y: 0, width: 360, height: 740 });
    await page.keyboard.type('small screen');
    await page.keyboard.press('Enter');
    await page
      .locator('console-chat-widget .bubble.ai.sent', { hasText: 'Echo: small screen' })
      .waitFor({ timeout: WAIT_MS });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'widget-360.png') });
    expect(problems).toEqual([]);
  });

  // The refusal (403) comes without CORS headers, so the page cannot read it: the widget can only
  // say that the chat cannot be reached, and must not throw.
  it('says so in its status line on a site whose origin is not allowed', async () => {
    const stranger = await serveDemo({ apiBase: api!.url, key: api!.key, port: 0 });
    try {
      const context = await browser!.newContext();
      contexts.push(context);
      const page = await context.newPage();
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      // Same server, other origin: localhost is not in the allowed origins.
      await page.goto(`http://localhost:${(stranger.address() as AddressInfo).port}/`);
      await page.locator('console-chat-widget .launcher').click();
      await page
        .locator('console-chat-widget .status', { hasText: 'Cannot reach the chat right now.' })
        .waitFor({ timeout: WAIT_MS });
      expect(problems).toEqual([]);
    } finally {
      await new Promise((resolve) => stranger.close(resolve));
    }
  });
});
