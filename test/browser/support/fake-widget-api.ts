import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { WIDGET_BUNDLE } from '../../../scripts/build-widget';

/**
 * A TEST FAKE of the public widget API (docs/api.md §7a), in memory, for driving the real
 * widget.js bundle in a browser with what the application does not send yet: replies streamed in
 * `message.delta` pieces (widget-app.browser-spec.ts runs the widget against the application). A
 * publishable key, its allowed origins, visitors, their messages, single-use stream tickets and
 * an SSE stream. Each visitor message gets a reply streamed as `message.delta` pieces then the
 * final `message`; a message containing "operator" is answered by an operator named Ada instead.
 */
export interface FakeMessage {
  id: string;
  conversation_id: string;
  role: 'user' | 'assistant';
  message: string;
  message_type: 'text';
  created_at: string;
  attachments: never[];
  author: { type: 'customer' | 'ai' | 'operator'; name: string | null };
}

export interface FakeWidgetApi {
  url: string;
  key: string;
  allowOrigin(origin: string): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startFakeWidgetApi(replyDelayMs = 300): Promise<FakeWidgetApi> {
  const key = 'pk_test_fake';
  const origins = new Set<string>();
  const conversations = new Map<string, FakeMessage[]>(); // by visitor token
  const tickets = new Map<string, string>(); // ticket → visitor token
  const streams = new Map<string, Set<ServerResponse>>(); // visitor token → open streams
  let sequence = 0;

  const frame = (res: ServerResponse, event: string, id: string, data: unknown) =>
    res.write(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const broadcast = (token: string, event: string, data: unknown) => {
    const all = conversations.get(token) ?? [];
    const position = all.length > 0 ? all[all.length - 1].id : '';
    streams.get(token)?.forEach((res) => frame(res, event, position, data));
  };
  const append = (
    token: string,
    role: FakeMessage['role'],
    text: string,
    author: FakeMessage['author'],
  ) => {
    const list = conversations.get(token) ?? [];
    conversations.set(token, list);
    sequence += 1;
    const message: FakeMessage = {
      id: `msg_${String(sequence).padStart(6, '0')}`,
      conversation_id: `conv_${token.slice(0, 8)}`,
      role,
      message: text,
      message_type: 'text',
      created_at: new Date().toISOString(),
      attachments: [],
      author,
    };
    list.push(message);
    broadcast(token, 'message', message);
    return message;
  };
  const reply = async (token: string, to: FakeMessage) => {
    await sleep(replyDelayMs);
    if (/operator/i.test(to.message)) {
      append(token, 'assistant', 'An operator here.', { type: 'operator', name: 'Ada' });
      return;
    }
    const text = `Echo: ${to.message}`;
    const pieces = text.match(/.{1,4}/gs) ?? [];
    for (const [index, delta] of pieces.entries()) {
      broadcast(token, 'message.delta', {
        conversation_id: to.conversation_id,
        reply_to: to.id,
        index,
        delta,
      });
      await sleep(40);
    }
    append(token, 'assistant', text, { type: 'ai', name: null });
  };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  };
  const body = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      chunks.push(chunk as Buffer);
    }
    return chunks.length > 0
      ? (JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>)
      : {};
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname === '/widget.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(readFileSync(WIDGET_BUNDLE));
      return;
    }
    const origin = req.headers.origin ?? '';
    // CORS for the allowed origins only: elsewhere the browser hides every answer from the page.
    if (origins.has(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
    }
    if (req.method === 'OPTIONS') {
      res
        .writeHead(204, {
          'Access-Control-Allow-Methods': 'GET, POST',
          'Access-Control-Allow-Headers': 'Authorization, Content-Type',
        })
        .end();
      return;
    }
    const route = `${req.method} ${url.pathname.replace('/api/v1/widget', '')}`;
    if (route === 'GET /stream') {
      const token = tickets.get(url.searchParams.get('ticket') ?? '');
      tickets.delete(url.searchParams.get('ticket') ?? '');
      if (!token) {
        return json(res, 404, { code: 'not_found', message: 'Unknown ticket' });
      }
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      const after = url.searchParams.get('after');
      const list = conversations.get(token) ?? [];
      const from = after ? list.findIndex((m) => m.id === after) + 1 : list.length;
      list.slice(from).forEach((m) => frame(res, 'message', m.id, m));
      res.write(': open\n\n');
      const open = streams.get(token) ?? new Set();
      streams.set(token, open.add(res));
      res.once('close', () => open.delete(res));
      return;
    }
    if (req.headers.authorization !== `Bearer ${key}` || !origins.has(origin)) {
      return json(res, 403, { code: 'forbidden', message: 'Origin not allowed' });
    }
    const input = req.method === 'POST' ? await body(req) : {};
    const token =
      typeof input.visitor_token === 'string'
        ? input.visitor_token
        : (url.searchParams.get('visitor_token') ?? '');
    switch (route) {
      case 'GET /config':
        return json(res, 200, {
          message: 'ok',
          data: { title: 'Fake Shop', greeting: 'Hi! Ask us anything.', color: '#0f766e' },
        });
      case 'POST /sessions': {
        const known = conversations.has(token);
        const visitor = known ? token : randomUUID();
        conversations.set(visitor, conversations.get(visitor) ?? []);
        const list = conversations.get(visitor)!;
        return json(res, 201, {
          message: 'ok',
          data: { visitor_token: visitor, conversation_id: list[0]?.conversation_id ?? null },
        });
      }
      case 'GET /messages': {
        const list = conversations.get(token) ?? [];
        const after = url.searchParams.get('after');
        const from = after ? list.findIndex((m) => m.id === after) + 1 : 0;
        return json(res, 200, {
          message: 'ok',
          data: list.slice(from),
          meta: { page: 1, page_count: 1 },
        });
      }
      case 'POST /messages': {
        if (!conversations.has(token)) {
          return json(res, 401, { code: 'unauthorized', message: 'Unknown visitor' });
        }
        const message = append(token, 'user', String(input.message), {
          type: 'customer',
          name: null,
        });
        void reply(token, message);
        return json(res, 201, { message: 'ok', data: message });
      }
      case 'POST /stream-ticket': {
        const ticket = randomUUID();
        tickets.set(ticket, token);
        return json(res, 201, { message: 'ok', data: { ticket, expires_in: 60 } });
      }
      default:
        return json(res, 404, { code: 'not_found', message: 'Not found' });
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => json(res, 400, { code: 'bad_request', message: 'Bad request' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    key,
    allowOrigin: (origin) => origins.add(origin),
    close: () =>
      new Promise((resolve) => {
        streams.forEach((open) => open.forEach((res) => res.destroy()));
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
