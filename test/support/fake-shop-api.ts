import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ShopRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeShopApi {
  url: string;
  /** Every request received, oldest first. */
  requests: ShopRequest[];
  /** The header and value every request must carry, else 401. */
  requiredHeader: [name: string, value: string];
  close(): Promise<void>;
}

const ORDERS: Record<string, { id: string; status: string; total: number }> = {
  A1: { id: 'A1', status: 'shipped', total: 25.5 },
  B2: { id: 'B2', status: 'processing', total: 10 },
};

/**
 * A shop's own API on 127.0.0.1, as a custom API tool would call it: it checks the auth header it
 * receives (401 without it), and has routes for the other outcomes a tool must survive.
 *   GET  /v1/orders/{id}     → {data: {order}} or 404
 *   GET  /v1/status/{id}     → {data: {id, status}} (the order's own keys under data) or 404
 *   POST /v1/echo            → {received: <the JSON body>, query}
 *   GET  /v1/slow?ms=        → answers after ms
 *   GET  /v1/huge            → 2 MB of JSON
 *   GET  /v1/moved           → 302 to /v1/orders/A1
 *   GET  /v1/whoami          → the credentials it was sent, as a careless API echoes them:
 *                              the Authorization header, and a basic one decoded
 */
export async function startFakeShopApi(): Promise<FakeShopApi> {
  const state = {
    requests: [] as ShopRequest[],
    requiredHeader: ['x-shop-key', 'shop-secret-1'] as [string, string],
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      state.requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
      });
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      const [name, value] = state.requiredHeader;
      if (req.headers[name.toLowerCase()] !== value) {
        json(401, { error: 'missing or wrong key' });
        return;
      }
      const url = new URL(req.url ?? '/', 'http://shop');
      const asked = /^\/v1\/status\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && asked) {
        const found = ORDERS[decodeURIComponent(asked[1])];
        if (found) {
          json(200, { data: { id: found.id, status: found.status } });
        } else {
          json(404, { error: `order ${decodeURIComponent(asked[1])} not found` });
        }
        return;
      }
      const order = /^\/v1\/orders\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && order) {
        const found = ORDERS[decodeURIComponent(order[1])];
        if (found) {
          json(200, { data: { order: found } });
        } else {
          json(404, { error: `order ${decodeURIComponent(order[1])} not found` });
        }
        return;
      }
      if (url.pathname === '/v1/echo') {
        json(200, {
          method: req.method,
          received: body ? (JSON.parse(body) as unknown) : null,
          query: Object.fromEntries(url.searchParams),
        });
        return;
      }
      if (url.pathname === '/v1/whoami') {
        const authorization = req.headers.authorization ?? '';
        const basic = /^Basic (.+)$/.exec(authorization);
        const decoded = basic ? Buffer.from(basic[1], 'base64').toString('utf8') : null;
        json(200, {
          authorization,
          decoded,
          user: decoded?.split(':')[0] ?? null,
          password: decoded?.split(':').slice(1).join(':') ?? null,
          hint: decoded ? `log in again with ${encodeURIComponent(decoded)}` : null,
        });
        return;
      }
      if (url.pathname === '/v1/slow') {
        setTimeout(() => json(200, { late: true }), Number(url.searchParams.get('ms') ?? 3000));
        return;
      }
      if (url.pathname === '/v1/huge') {
        json(200, { filler: 'x'.repeat(2 * 1024 * 1024) });
        return;
      }
      if (url.pathname === '/v1/moved') {
        res.writeHead(302, { location: '/v1/orders/A1' }).end();
        return;
      }
      json(404, { error: 'no such route' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
