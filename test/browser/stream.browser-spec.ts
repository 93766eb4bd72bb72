import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { MESSAGE_BUS, MessageBus, STREAM_SLOTS, StreamSlots } from '@/common/state/ports';
import { createAgent } from '../factories/agents';
import {
  allMessages,
  PostedMessage,
  repliesSettled,
  sendAs,
  sendTo,
} from '../factories/conversations';
import { startTestApp, TestApp } from '../factories/test-app';
import { LlmStub, startLlmStub } from '../support/llm-stub';
import { pollUntil, sleep } from '../support/wait';
import { launchChromium } from './support/chromium';
import { StreamConnections, watchStreamConnections } from './support/stream-connections';
import { startStreamPage, StreamPage } from './support/stream-page';

const HEARTBEAT_MS = 1000;
const WAIT_MS = 5000;
/** Chromium's default EventSource reconnection delay (the stream sends no `retry:`). */
const BROWSER_RETRY_MS = 3000;
const SCREENSHOT_DIR = join(tmpdir(), 'console-api-browser-tests');

interface PageState {
  state: string;
  connections: number;
  reconnects: number;
  lastId: string;
  messages: { id: string; role: string; text: string }[];
}

/** What the page shows, read from its DOM (the page script keeps nothing else). */
const READ_PAGE = `(() => ({
  state: document.getElementById('status').dataset.state,
  connections: Number(document.getElementById('connections').textContent),
  reconnects: Number(document.getElementById('reconnects').textContent),
  lastId: document.getElementById('last-id').textContent,
  messages: Array.from(document.querySelectorAll('#messages li')).map((li) => ({
    id: li.dataset.id,
    role: li.dataset.role,
    text: li.querySelector('.text').textContent,
  })),
}))()`;

const readPage = (page: Page) => page.evaluate<PageState>(READ_PAGE);

async function waitForPage(
  page: Page,
  what: string,
  done: (state: PageState) => boolean,
): Promise<PageState> {
  const { value } = await pollUntil(() => readPage(page), done, WAIT_MS, 25);
  if (!done(value)) {
    throw new Error(`page never got ${what} in ${WAIT_MS} ms; it shows ${JSON.stringify(value)}`);
  }
  return value;
}

async function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), WAIT_MS);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const ids = (messages: { id: string }[]) => messages.map((m) => m.id);

describe('the message stream in a browser', () => {
  let t: TestApp | undefined;
  let streams: StreamConnections | undefined;
  let pageServer: StreamPage | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;

  afterAll(async () => {
    try {
      if (page) {
        mkdirSync(SCREENSHOT_DIR, { recursive: true });
        await page.screenshot({ path: join(SCREENSHOT_DIR, 'stream.png'), fullPage: true });
      }
    } finally {
      await browser?.close();
      await pageServer?.close();
      streams?.stop();
      await t?.close();
    }
  });

  it('shows messages live, and after a server-side disconnect resumes with a fresh ticket and `after` = the last id, losing and repeating nothing', async () => {
    t = await startTestApp({ CORS_ORIGINS: '*', STREAM_HEARTBEAT_MS: String(HEARTBEAT_MS) });
    const app = t;
    const agentId = (await createAgent(app)).id;
    // Only operators speak (role assistant), so no automatic reply interleaves.
    const opening = await sendAs(app, agentId, 'browser-visitor', 'Opening line', {
      role: 'assistant',
    });
    const conversationId = opening.conversation_id;
    const send = (text: string) => sendTo(app, agentId, conversationId, text, 'assistant');

    streams = watchStreamConnections(app);
    pageServer = await startStreamPage(app, agentId, conversationId);
    browser = await launchChromium();
    page = await browser.newPage();
    const browserTraffic: string[] = [];
    page.on('request', (request) =>
      browserTraffic.push(`${request.url()} ${JSON.stringify(request.headers())}`),
    );
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(String(error)));

    // Connected: the first heartbeat carries the newest message id as the resume point.
    await page.goto(pageServer.url);
    const connected = await waitForPage(
      page,
      'its first stream',
      (s) => s.state === 'live' && s.connections === 1,
    );
    expect(connected).toMatchObject({ lastId: opening.id, reconnects: 0, messages: [] });

    // Live messages appear as they are sent.
    const before: PostedMessage[] = [];
    for (const text of ['Hello from the API', '<b>not bold</b> & "quoted" ünïcødé', 'a\nb']) {
      before.push(await send(text));
    }
    const shownBefore = await waitForPage(
      page,
      'the first messages',
      (s) => s.messages.length >= 3,
    );
    expect(shownBefore.messages).toEqual(
      before.map((m) => ({ id: m.id, role: 'assistant', text: m.message })),
    );
    const lastBefore = before.at(-1)!.id;
    expect(shownBefore.lastId).toBe(lastBefore);

    // The server drops the connection; the page asks its backend for a new ticket, which the
    // harness holds back while more messages are written.
    expect(streams.open()).toBe(1);
    const hold = pageServer.holdNextTicket();
    expect(streams.kill()).toBe(1);
    const killedAt = Date.now();
    const resumeCall = await within(hold.requested, "the page's request for a new ticket");
    expect(resumeCall.after).toBe(lastBefore);
    expect(await readPage(page)).toMatchObject({ state: 'connecting', reconnects: 1 });
    // The dropped stream gave back its slot and its subscription.
    const slots = app.app.get<StreamSlots>(STREAM_SLOTS);
    const bus = app.app.get<MessageBus>(MESSAGE_BUS);
    const released = await pollUntil(
      async () => ({ slots: await slots.held(), watched: bus.watchedConversations() }),
      (s) => s.slots === 0 && s.watched === 0,
      WAIT_MS,
      20,
    );
    expect(released.value).toEqual({ slots: 0, watched: 0 });

    const during: PostedMessage[] = [];
    for (const text of ['sent while away 1', 'sent while away 2', 'sent while away 3']) {
      during.push(await send(text));
    }
    await sleep(200);
    expect((await readPage(page)).messages).toHaveLength(3);

    // Resumed: the messages written meanwhile are replayed, then live ones follow.
    hold.release();
    const resumed = await waitForPage(
      page,
      'the messages sent while it was disconnected',
      (s) => s.state === 'live' && s.connections === 2 && s.messages.length >= 6,
    );
    expect(ids(resumed.messages)).toEqual(ids([...before, ...during]));
    const after: PostedMessage[] = [];
    for (const text of ['back again 1', 'back again 2']) {
      after.push(await send(text));
    }
    await waitForPage(page, 'the messages sent after it resumed', (s) => s.messages.length >= 8);
    // Wait for a heartbeat, so that anything doubled or late would have arrived, and for longer
    // than EventSource's own reconnection delay (3 s in Chromium) after the drop, so that a retry
    // with the spent ticket would have been seen.
    await sleep(Math.max(HEARTBEAT_MS + 200, killedAt + BROWSER_RETRY_MS + 500 - Date.now()));

    const stored = await allMessages(app, agentId, conversationId);
    expect(stored[0].id).toBe(opening.id);
    const expected = stored.slice(1);
    expect(ids(expected)).toEqual(ids([...before, ...during, ...after]));
    const final = await readPage(page);
    expect(final.messages).toEqual(
      expected.map((m) => ({ id: m.id, role: m.role, text: m.message })),
    );
    expect(new Set(ids(final.messages)).size).toBe(final.messages.length);
    expect(final.reconnects).toBeGreaterThanOrEqual(1);
    expect(final).toMatchObject({ state: 'live', connections: 2, lastId: after.at(-1)!.id });

    // Two tickets, each fresh and used once: the page never let EventSource retry a spent one.
    const calls = pageServer.ticketCalls;
    expect(calls.map((c) => c.after)).toEqual([null, lastBefore]);
    expect(calls[0].ticket).toEqual(expect.any(String));
    expect(calls[1].ticket).toEqual(expect.any(String));
    expect(calls[1].ticket).not.toBe(calls[0].ticket);
    expect(streams.requests).toEqual([
      {
        ticket: calls[0].ticket,
        after: null,
        lastEventId: null,
        status: 200,
        written: expect.any(Array),
      },
      {
        ticket: calls[1].ticket,
        after: lastBefore,
        lastEventId: null,
        status: 200,
        written: expect.any(Array),
      },
    ]);

    // The API key stayed with the harness.
    expect(browserTraffic.length).toBeGreaterThan(0);
    expect(browserTraffic.filter((line) => line.includes(app.key))).toEqual([]);
    expect(await page.content()).not.toContain(app.key);
    expect(pageErrors).toEqual([]);
  }, 60_000);
});

describe('reply pieces in a browser', () => {
  const ANSWER = 'Our shoes come in sizes 36 to 46, in black and in brown leather.';
  let t: TestApp | undefined;
  let llm: LlmStub | undefined;
  let pageServer: StreamPage | undefined;
  let browser: Browser | undefined;

  afterAll(async () => {
    await browser?.close();
    await pageServer?.close();
    await t?.close();
    await llm?.close();
  });

  it('keeps a valid Last-Event-ID while the pieces come: each carries the message before it', async () => {
    llm = await startLlmStub();
    llm.answer = ANSWER;
    llm.pieceDelayMs = 40;
    t = await startTestApp({
      CORS_ORIGINS: '*',
      STREAM_HEARTBEAT_MS: String(HEARTBEAT_MS),
      LLM_BASE_URL: llm.url,
      LLM_API_KEY: 'llm-key',
      LLM_TIMEOUT_MS: '5000',
    });
    const agentId = (await createAgent(t)).id;
    const opening = await sendAs(t, agentId, 'browser-pieces', 'Hi');
    await repliesSettled(t);
    pageServer = await startStreamPage(t, agentId, opening.conversation_id);
    browser = await launchChromium();
    const page = await browser.newPage();
    await page.goto(pageServer.url);
    await waitForPage(page, 'its stream', (s) => s.state === 'live');

    const asked = await sendTo(t, agentId, opening.conversation_id, 'Which sizes do you have?');
    const shown = await waitForPage(page, 'the reply', (s) =>
      s.messages.some((m) => m.role === 'assistant' && m.text === ANSWER),
    );
    const pieces = await page.evaluate<{ lastEventId: string; text: string }[]>(
      `Array.from(document.querySelectorAll('#deltas li')).map((li) => ({
        lastEventId: li.dataset.lastEventId, text: li.textContent }))`,
    );
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.map((piece) => piece.text).join('')).toBe(ANSWER);
    expect(new Set(pieces.map((piece) => piece.lastEventId))).toEqual(new Set([asked.id]));
    expect(shown.lastId).toBe(shown.messages.at(-1)!.id);
  }, 30_000);
});
