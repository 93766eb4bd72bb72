import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createAgent } from '../factories/agents';
import { conversationsPath } from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import { freePort } from '../support/free-port';
import { pollUntil } from '../support/wait';
import { launchChromium } from './support/chromium';
import { EmbedPage, startEmbedPage } from './support/embed-page';
import {
  StreamConnections,
  watchStreamConnections,
  WIDGET_STREAM_PATH,
} from './support/stream-connections';

const SCREENSHOT_DIR = join(tmpdir(), 'console-api-browser-tests');
const WAIT_MS = 10_000;
const ENGINE = process.env.TEST_POSTGRES_URL ? 'postgres' : 'sqlite';

const HELLO_REPLY = 'Hi from the shop!';
const HOURS_REPLY = 'We are open from 9 to 5.';

/** The log's bubbles as the visitor sees them (Playwright's CSS locators enter open shadow roots). */
const bubbles = (page: Page) =>
  page.locator('console-chat-widget .log .bubble:not(.greeting)').allTextContents();

/**
 * docs/api.md §7 end to end: the real application (SQLite, or PostgreSQL on TEST_POSTGRES_URL),
 * a webchat connected through the console API, a customer's page on an allowed origin that pastes
 * the connect answer's embed_snippet, and visitors in Chromium talking to the agent's workflow.
 */
describe(`the web-chat widget in a browser, against the application (${ENGINE})`, () => {
  let t: TestApp | undefined;
  let site: EmbedPage | undefined;
  let streams: StreamConnections | undefined;
  let browser: Browser | undefined;
  let agentId = '';
  let pk = '';
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];

  async function openPage(width: number, height: number, url = site!.url): Promise<Page> {
    const context = await browser!.newContext({ viewport: { width, height } });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(url);
    await page.locator('console-chat-widget .launcher').waitFor({ timeout: WAIT_MS });
    return page;
  }

  async function openPanel(page: Page): Promise<void> {
    await page.locator('console-chat-widget .launcher').click();
    await page.locator('console-chat-widget [role="dialog"]').waitFor({ state: 'visible' });
    await page.locator('console-chat-widget .title', { hasText: 'Shop helper' }).waitFor();
  }

  async function say(page: Page, text: string, reply: string, author = 'ai'): Promise<void> {
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    await page
      .locator(`console-chat-widget .bubble.${author}.sent`, { hasText: reply })
      .waitFor({ timeout: WAIT_MS });
  }

  const visitorToken = (page: Page) =>
    page.evaluate<string>(`localStorage.getItem('console-widget:${pk}:visitor')`);

  /** The visitor's conversation, through the console API (staff see every conversation). */
  async function conversationOf(page: Page): Promise<string> {
    const session = await t!
      .http()
      .post('/api/v1/widget/sessions')
      .set('Authorization', `Bearer ${pk}`)
      .set('Origin', site!.origin)
      .send({ visitor_token: await visitorToken(page) })
      .expect(201);
    return session.body.data.conversation_id as string;
  }

  const openStreams = async (count: number) => {
    const { value } = await pollUntil(
      () => Promise.resolve(streams!.open()),
      (open) => open >= count,
      WAIT_MS,
      20,
    );
    expect(value).toBeGreaterThanOrEqual(count);
  };

  async function screenshot(page: Page, name: string): Promise<void> {
    const path = join(SCREENSHOT_DIR, `${name}-${ENGINE}.png`);
    await page.screenshot({ path });
    console.log(`screenshot: ${path}`);
  }

  beforeAll(async () => {
    site = await startEmbedPage();
    // The snippet points at PUBLIC_URL: the application's own address, known before it starts.
    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    t = await startTestApp({
      PORT: String(port),
      PUBLIC_URL: appUrl,
      WIDGET_RATE_LIMIT_MAX: '1000',
    });
    const workflow = await createWorkflow(t, {
      name: 'Shop',
      rules: [
        { name: 'Greeting', trigger: 'hello', response: HELLO_REPLY, enabled: true },
        { name: 'Hours', trigger: 'opening hours', response: HOURS_REPLY, enabled: true },
      ],
    });
    agentId = (await createAgent(t, { workflow_id: workflow.id, name: 'Ada' })).id;
    const channelsKey = await t.createKey('default', ['channels:write']);
    const connected = await t
      .api(channelsKey.key)
      .post(`${API}/agents/${agentId}/channels/webchat/connect`)
      .send({ allowed_origins: [site.origin], title: 'Shop helper', greeting: 'Welcome!' })
      .expect(200);
    pk = connected.body.data.publishable_key;
    expect(connected.body.data.embed_snippet).toBe(
      `<script src="${appUrl}/widget.js" data-key="${pk}" async></script>`,
    );
    site.embed(connected.body.data.embed_snippet);
    streams = watchStreamConnections(t, WIDGET_STREAM_PATH);
    browser = await launchChromium();
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
    streams?.stop();
    await site?.close();
    await t?.close();
  });

  it('converses: the reply comes in on the stream, history survives a reload, an operator shows by name, a note never', async () => {
    const page = await openPage(1280, 800);
    const widgetGets: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'GET' && request.url().includes('/api/v1/widget/messages')) {
        widgetGets.push(request.url());
      }
    });
    await openPanel(page);
    expect(await page.locator('console-chat-widget .greeting').textContent()).toBe('Welcome!');

    // The first message makes the conversation; the widget opens its stream after it.
    await say(page, 'hello', HELLO_REPLY);
    await openStreams(1);
    const stream = streams!.requests.at(-1)!;
    expect(stream.status).toBe(200);

    // With the stream open, the next reply arrives through it, with no refetch of the history.
    const fetchesBefore = widgetGets.length;
    await say(page, 'what are your opening hours?', HOURS_REPLY);
    expect(stream.written.join('')).toContain(HOURS_REPLY);
    expect(widgetGets.length).toBe(fetchesBefore);

    // Staff write a private note, then an operator reply: only the reply reaches the panel, live.
    const conversationId = await conversationOf(page);
    const staff = `${conversationsPath(agentId)}/${conversationId}`;
    await t!.api().post(`${staff}/notes`).send({ text: 'Secret staff note' }).expect(201);
    await t!
      .api()
      .post(`${staff}/messages`)
      .send({
        message: 'Kemi here, how can I help?',
        role: 'assistant',
        author: { id: 'op-7', name: 'Kemi' },
      })
      .expect(201);
    const operator = page.locator('console-chat-widget .bubble.operator', {
      hasText: 'Kemi here, how can I help?',
    });
    await operator.waitFor({ timeout: WAIT_MS });
    expect(await operator.locator('.name').textContent()).toBe('Kemi');
    expect(stream.written.join('')).not.toContain('Secret staff note');
    const shown = [
      'hello',
      HELLO_REPLY,
      'what are your opening hours?',
      HOURS_REPLY,
      'KemiKemi here, how can I help?',
    ];
    expect(await bubbles(page)).toEqual(shown);
    expect(widgetGets.length).toBe(fetchesBefore);
    await screenshot(page, 'widget-app-1280');

    // A reload shows the history (the note still left out).
    await page.reload();
    await openPanel(page);
    await page
      .locator('console-chat-widget .bubble', { hasText: 'Kemi here, how can I help?' })
      .waitFor({ timeout: WAIT_MS });
    expect(await bubbles(page)).toEqual(shown);

    // Another browser is another visitor: none of the first one's messages, a conversation of its own.
    const other = await openPage(1280, 800);
    await openPanel(other);
    await other.locator('console-chat-widget .greeting').waitFor();
    await other.waitForTimeout(300);
    expect(await bubbles(other)).toEqual([]);
    await say(other, 'hello there', HELLO_REPLY);
    expect(await bubbles(other)).toEqual(['hello there', HELLO_REPLY]);
    expect(await visitorToken(other)).not.toBe(await visitorToken(page));
    expect(await conversationOf(other)).not.toBe(conversationId);
    await page.waitForTimeout(300);
    expect(await bubbles(page)).toEqual(shown);
    expect(problems).toEqual([]);
  });

  it('after the server cuts its stream, comes back with a new ticket after the last message, missing nothing and showing nothing twice', async () => {
    // The earlier visitors' pages go, so that the only widget stream left is this page's.
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    const page = await openPage(1280, 800);
    await openPanel(page);
    await say(page, 'hello before the cut', HELLO_REPLY);
    const conversationId = await conversationOf(page);
    const staff = `${conversationsPath(agentId)}/${conversationId}`;
    const { value: stream } = await pollUntil(
      () =>
        Promise.resolve(
          streams!.requests.find(
            (r) => r.status === 200 && r.written.join('').includes(conversationId),
          ),
        ),
      (found) => found !== undefined,
      WAIT_MS,
      20,
    );
    expect(stream).toBeDefined();
    const history = await t!
      .http()
      .get(`/api/v1/widget/messages?visitor_token=${await visitorToken(page)}`)
      .set('Authorization', `Bearer ${pk}`)
      .set('Origin', site!.origin)
      .expect(200);
    const lastId = (history.body.data as { id: string }[]).at(-1)!.id;
    const requestsBefore = streams!.requests.length;

    // Every open widget stream goes, as behind a crashed proxy; an operator writes meanwhile.
    const alone = await pollUntil(
      () => Promise.resolve(streams!.open()),
      (open) => open === 1,
      WAIT_MS,
      20,
    );
    expect(alone.value).toBe(1);
    expect(streams!.kill()).toBe(1);
    await t!
      .api()
      .post(`${staff}/messages`)
      .send({ message: 'Said while you were away.', role: 'assistant', author: { name: 'Kemi' } })
      .expect(201);
    await page
      .locator('console-chat-widget .bubble.operator', { hasText: 'Said while you were away.' })
      .waitFor({ timeout: WAIT_MS });
    const resumed = streams!.requests.slice(requestsBefore);
    expect(resumed.length).toBeGreaterThan(0);
    expect(resumed[0].after).toBe(lastId);
    expect(resumed.every((r) => r.ticket !== stream!.ticket)).toBe(true);

    await t!
      .api()
      .post(`${staff}/messages`)
      .send({ message: 'And live again.', role: 'assistant', author: { name: 'Kemi' } })
      .expect(201);
    await page
      .locator('console-chat-widget .bubble.operator', { hasText: 'And live again.' })
      .waitFor({ timeout: WAIT_MS });
    await page.waitForTimeout(300);
    expect(await bubbles(page)).toEqual([
      'hello before the cut',
      HELLO_REPLY,
      'KemiSaid while you were away.',
      'KemiAnd live again.',
    ]);
    expect(problems).toEqual([]);
  });

  it('fills a 360 px wide screen with the panel', async () => {
    const page = await openPage(360, 740);
    await openPanel(page);
    const box = (await page.locator('console-chat-widget [role="dialog"]').boundingBox())!;
    expect(box).toEqual({ x: 0, y: 0, width: 360, height: 740 });
    await say(page, 'hello from a phone', HELLO_REPLY);
    await screenshot(page, 'widget-app-360');
    expect(problems).toEqual([]);
  });

  // The refusal (403) comes without CORS headers, so the page cannot read it: the widget can only
  // say that the chat cannot be reached, and must not throw.
  it('says so in its status line on a site whose origin is not allowed', async () => {
    // The same page from another origin: localhost is not in the allowed origins.
    const page = await openPage(1280, 800, `http://localhost:${site!.port}/`);
    await page.locator('console-chat-widget .launcher').click();
    await page
      .locator('console-chat-widget .status', { hasText: 'Cannot reach the chat right now.' })
      .waitFor({ timeout: WAIT_MS });
    expect(problems).toEqual([]);
  });
});
