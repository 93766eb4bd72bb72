import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { conversationsPath, issueTicket } from '../../factories/conversations';
import { TestApp } from '../../factories/test-app';

/** One call the page made to the harness's ticket endpoint. */
export interface TicketCall {
  /** The `after` the page asked for (null on its first connection). */
  after: string | null;
  /** The ticket handed out, once issued. */
  ticket?: string;
}

export interface TicketHold {
  /** Resolves when the page asks for its next ticket (the page has then closed its stream). */
  requested: Promise<TicketCall>;
  /** Lets the held request go on: a fresh ticket is issued only now. */
  release(): void;
}

export interface StreamPage {
  /** The page's address (another origin than the API's). */
  url: string;
  /** Every ticket request, in order. */
  ticketCalls: TicketCall[];
  /** Holds the next ticket request until `release()`, so that the test can act meanwhile. */
  holdNextTicket(): TicketHold;
  close(): Promise<void>;
}

/**
 * The browser client under test, as the README tells integrators to write it: a ticket from its
 * own backend, an EventSource, and on `error` a new EventSource with a new ticket and `after` set
 * to the last id received. It shows every message in #messages and its state in data attributes.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Conversation stream</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 16px; }
  #messages { list-style: none; padding: 0; }
  #messages li { border: 1px solid #ccc; border-radius: 6px; margin: 4px 0; padding: 4px 8px; }
  #messages li small { color: #777; font-family: monospace; margin-left: 8px; }
  #status { font-weight: bold; }
  #messages li .text { white-space: pre-wrap; }
</style>
</head>
<body>
<h1>Conversation</h1>
<p>state: <span id="status" data-state="starting">starting</span>,
   connections: <span id="connections">0</span>,
   reconnects: <span id="reconnects">0</span>,
   last id: <code id="last-id"></code></p>
<ul id="messages"></ul>
<ol id="deltas"></ol>
<script>
  var lastId = null;
  var connections = 0;
  var reconnects = 0;
  var list = document.getElementById('messages');

  function setState(state) {
    var status = document.getElementById('status');
    status.dataset.state = state;
    status.textContent = state;
  }
  function setLastId(id) {
    lastId = id;
    document.getElementById('last-id').textContent = id;
  }
  function show(message) {
    var item = document.createElement('li');
    item.dataset.id = message.id;
    item.dataset.role = message.role;
    var text = document.createElement('span');
    text.className = 'text';
    text.textContent = message.message;
    var id = document.createElement('small');
    id.textContent = message.role + ' ' + message.id;
    item.appendChild(text);
    item.appendChild(id);
    list.appendChild(item);
  }
  function retry() {
    setState('disconnected');
    setTimeout(connect, 100);
  }
  function connect() {
    setState('connecting');
    var query = lastId ? '?after=' + encodeURIComponent(lastId) : '';
    fetch('/ticket' + query)
      .then(function (res) {
        if (!res.ok) { throw new Error('ticket: ' + res.status); }
        return res.json();
      })
      .then(function (body) {
        connections += 1;
        document.getElementById('connections').textContent = String(connections);
        var source = new EventSource(body.url);
        source.addEventListener('heartbeat', function (event) {
          setLastId(event.lastEventId);
          setState('live');
        });
        source.addEventListener('message', function (event) {
          setLastId(event.lastEventId);
          show(JSON.parse(event.data));
        });
        source.addEventListener('message.delta', function (event) {
          setLastId(event.lastEventId);
          var piece = document.createElement('li');
          piece.dataset.lastEventId = event.lastEventId;
          piece.textContent = JSON.parse(event.data).delta;
          document.getElementById('deltas').appendChild(piece);
        });
        source.addEventListener('error', function () {
          // The ticket is spent: the browser's own reconnect would be refused.
          source.close();
          reconnects += 1;
          document.getElementById('reconnects').textContent = String(reconnects);
          retry();
        });
      })
      .catch(retry);
  }
  connect();
</script>
</body>
</html>
`;

/**
 * A small web server of the test harness, on its own origin: it serves the page, and a
 * test-only endpoint GET /ticket?after= that holds the API key, gets a stream ticket from the
 * API and answers with the full stream URL. The key never reaches the browser.
 */
export async function startStreamPage(
  t: TestApp,
  agentId: string,
  conversationId: string,
): Promise<StreamPage> {
  const ticketCalls: TicketCall[] = [];
  let hold: { request: (call: TicketCall) => void; released: Promise<void> } | undefined;

  async function ticket(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const after = new URL(req.url ?? '/', 'http://page').searchParams.get('after');
    const call: TicketCall = { after };
    ticketCalls.push(call);
    const held = hold;
    hold = undefined;
    if (held) {
      held.request(call);
      await held.released;
    }
    call.ticket = await issueTicket(t, agentId, conversationId);
    const query = new URLSearchParams({ ticket: call.ticket });
    if (after) {
      query.set('after', after);
    }
    const url = `${t.url}${conversationsPath(agentId)}/${conversationId}/messages/stream?${query.toString()}`;
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify({ url }));
  }

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(PAGE);
    } else if (req.method === 'GET' && path === '/ticket') {
      ticket(req, res).catch((error: unknown) => {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(String(error));
      });
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/`,
    ticketCalls,
    holdNextTicket() {
      let request!: (call: TicketCall) => void;
      let release!: () => void;
      const requested = new Promise<TicketCall>((resolve) => (request = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      hold = { request, released };
      return { requested, release };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
