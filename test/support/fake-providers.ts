import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ProviderRequest {
  provider: 'stripe' | 'paystack' | 'bumpa';
  method: string;
  /** Below the provider's base, with the query. */
  path: string;
  /** The key sent: the bearer token (Stripe, Paystack) or X-Api-Key (Bumpa). */
  key: string | null;
  contentType: string | null;
  body: string;
}

type Reply = [status: number, body: unknown];

export interface FakeProviders {
  url: string;
  /** STRIPE_API_BASE_URL, PAYSTACK_API_BASE_URL and BUMPA_API_BASE_URL pointing here. */
  env: Record<string, string>;
  /** Every request received, oldest first. */
  requests: ProviderRequest[];
  /** Keys every provider answers 401 (403 for those in `forbidden`). */
  refused: Set<string>;
  forbidden: Set<string>;
  /** When set, every request gets this status (a provider failing), or no answer at all. */
  outage: number | 'hang' | null;
  /** Stripe payment intents and Paystack transactions the fakes know, by id or reference. */
  stripePaymentIntents: Map<string, Record<string, unknown>>;
  /** Stripe Checkout Sessions, each with the `payment_link` it came from. */
  stripeCheckoutSessions: Array<Record<string, unknown>>;
  paystackTransactions: Map<string, Record<string, unknown>>;
  bumpaOrders: Array<Record<string, unknown>>;
  bumpaProducts: Array<Record<string, unknown>>;
  /** Stops the server, cutting requests left hanging. */
  close(): Promise<void>;
  /** Lets the process exit while the server still listens (for a fake shared by a worker). */
  unref(): void;
}

const id = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

function keyOf(req: IncomingMessage, provider: ProviderRequest['provider']): string | null {
  if (provider === 'bumpa') {
    return (req.headers['x-api-key'] as string | undefined) ?? null;
  }
  const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
  return match ? match[1] : null;
}

/**
 * Local stand-ins for Stripe, Paystack and Bumpa on 127.0.0.1, answering the calls the
 * connectors make in the providers' documented shapes, at /stripe, /paystack and /bumpa.
 */
export async function startFakeProviders(): Promise<FakeProviders> {
  const state = {
    requests: [] as ProviderRequest[],
    refused: new Set<string>(),
    forbidden: new Set<string>(),
    outage: null as number | 'hang' | null,
    stripePaymentIntents: new Map<string, Record<string, unknown>>(),
    stripeCheckoutSessions: [] as Array<Record<string, unknown>>,
    paystackTransactions: new Map<string, Record<string, unknown>>(),
    bumpaOrders: [] as Array<Record<string, unknown>>,
    bumpaProducts: [] as Array<Record<string, unknown>>,
  };
  const prices = new Map<string, Record<string, unknown>>();

  const stripe = (method: string, url: URL, form: URLSearchParams): Reply => {
    const path = url.pathname;
    if (method === 'GET' && path === '/v1/balance') {
      return [200, { object: 'balance', available: [{ amount: 0, currency: 'usd' }] }];
    }
    if (method === 'POST' && path === '/v1/prices') {
      const price = {
        id: id('price'),
        object: 'price',
        currency: form.get('currency'),
        unit_amount: Number(form.get('unit_amount')),
        product: id('prod'),
        product_name: form.get('product_data[name]'),
      };
      if (!price.currency || !Number.isInteger(price.unit_amount) || !price.product_name) {
        return [400, { error: { type: 'invalid_request_error', message: 'Missing price fields' } }];
      }
      prices.set(price.id, price);
      return [200, price];
    }
    if (method === 'POST' && path === '/v1/payment_links') {
      const price = prices.get(form.get('line_items[0][price]') ?? '');
      if (!price) {
        return [400, { error: { type: 'invalid_request_error', message: 'No such price' } }];
      }
      const linkId = id('plink');
      return [
        200,
        { id: linkId, object: 'payment_link', url: `https://buy.stripe.com/test_${linkId}` },
      ];
    }
    if (method === 'GET' && path === '/v1/checkout/sessions') {
      const link = url.searchParams.get('payment_link');
      const limit = Number(url.searchParams.get('limit') ?? 10);
      const data = state.stripeCheckoutSessions
        .filter((session) => !link || session.payment_link === link)
        .slice(0, limit);
      return [200, { object: 'list', data, has_more: false }];
    }
    const session = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && session) {
      const found = state.stripeCheckoutSessions.find(
        (s) => s.id === decodeURIComponent(session[1]),
      );
      return found
        ? [200, found]
        : [404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } }];
    }
    const intent = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && intent) {
      const found = state.stripePaymentIntents.get(decodeURIComponent(intent[1]));
      return found
        ? [200, found]
        : [
            404,
            {
              error: {
                type: 'invalid_request_error',
                message: `No such payment_intent: '${intent[1]}'`,
              },
            },
          ];
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const paid = state.stripePaymentIntents.get(form.get('payment_intent') ?? '');
      if (!paid) {
        return [
          400,
          { error: { type: 'invalid_request_error', message: 'No such payment_intent' } },
        ];
      }
      return [
        200,
        {
          id: id('re'),
          object: 'refund',
          status: 'succeeded',
          amount: Number(form.get('amount') ?? paid.amount),
          currency: paid.currency,
        },
      ];
    }
    return [
      404,
      {
        error: {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${method}: ${path})`,
        },
      },
    ];
  };

  const paystack = (method: string, url: URL, json: Record<string, unknown>): Reply => {
    const path = url.pathname;
    if (method === 'GET' && path === '/balance') {
      return [
        200,
        { status: true, message: 'Balances retrieved', data: [{ currency: 'NGN', balance: 0 }] },
      ];
    }
    if (method === 'POST' && path === '/transaction/initialize') {
      if (typeof json.email !== 'string' || typeof json.amount !== 'string') {
        return [400, { status: false, message: 'Invalid email or amount' }];
      }
      const reference = (json.reference as string | undefined) ?? id('ref');
      const accessCode = id('ac');
      state.paystackTransactions.set(reference, {
        reference,
        status: 'abandoned',
        amount: Number(json.amount),
        currency: json.currency ?? 'NGN',
        paid_at: null,
        gateway_response: 'The transaction was not completed',
      });
      return [
        200,
        {
          status: true,
          message: 'Authorization URL created',
          data: {
            authorization_url: `https://checkout.paystack.com/${accessCode}`,
            access_code: accessCode,
            reference,
          },
        },
      ];
    }
    if (method === 'GET' && /^\/transaction\/?$/.test(path)) {
      // Every transaction of the account: what a path that climbs out of /verify/ reaches.
      return [
        200,
        {
          status: true,
          message: 'Transactions retrieved',
          data: [...state.paystackTransactions.values()],
        },
      ];
    }
    const verify = /^\/transaction\/verify\/([^/]+)$/.exec(path);
    if (method === 'GET' && verify) {
      const found = state.paystackTransactions.get(decodeURIComponent(verify[1]));
      return found
        ? [200, { status: true, message: 'Verification successful', data: found }]
        : [400, { status: false, message: 'Transaction reference not found' }];
    }
    if (method === 'POST' && path === '/refund') {
      const found = state.paystackTransactions.get(String(json.transaction));
      if (!found) {
        return [404, { status: false, message: 'Transaction not found' }];
      }
      return [
        200,
        {
          status: true,
          message: 'Refund has been queued for processing',
          data: {
            status: 'pending',
            amount: json.amount ?? found.amount,
            currency: found.currency,
          },
        },
      ];
    }
    return [404, { status: false, message: 'Not found' }];
  };

  const bumpa = (method: string, url: URL): Reply => {
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const page = Number(url.searchParams.get('page') ?? 1);
    const pageOf = (rows: Array<Record<string, unknown>>) => ({
      current_page: page,
      data: rows.slice((page - 1) * limit, page * limit),
      per_page: limit,
      total: rows.length,
      last_page: Math.max(1, Math.ceil(rows.length / limit)),
    });
    if (method === 'GET' && url.pathname === '/orders') {
      return [200, { success: true, orders: pageOf(state.bumpaOrders) }];
    }
    if (method === 'GET' && url.pathname === '/products') {
      return [200, { success: true, ...pageOf(state.bumpaProducts) }];
    }
    return [404, { success: false, message: `The route ${url.pathname} could not be found.` }];
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      chunks.push(chunk as Buffer);
    }
    const body = Buffer.concat(chunks).toString('utf8');
    const [, provider, rest = '/'] = /^\/(stripe|paystack|bumpa)(\/.*)?$/.exec(req.url ?? '') ?? [];
    if (!provider) {
      res.writeHead(404).end();
      return;
    }
    const which = provider as ProviderRequest['provider'];
    const key = keyOf(req, which);
    state.requests.push({
      provider: which,
      method: req.method ?? 'GET',
      path: rest,
      key,
      contentType: req.headers['content-type'] ?? null,
      body,
    });
    if (state.outage === 'hang') {
      return;
    }
    let reply: Reply;
    if (state.outage !== null) {
      reply = [state.outage, { message: 'Service unavailable' }];
    } else if (!key || state.refused.has(key)) {
      // Quoting the key, as a careless provider might: the service must not pass it on.
      reply =
        which === 'stripe'
          ? [
              401,
              {
                error: {
                  type: 'invalid_request_error',
                  message: `Invalid API Key provided: ${key}`,
                },
              },
            ]
          : [401, { status: false, message: `Invalid key ${key}` }];
    } else if (state.forbidden.has(key)) {
      reply = [403, { message: 'This key lacks the permission' }];
    } else {
      const url = new URL(rest, 'http://fake');
      reply =
        which === 'stripe'
          ? stripe(req.method ?? 'GET', url, new URLSearchParams(body))
          : which === 'paystack'
            ? paystack(
                req.method ?? 'GET',
                url,
                body ? (JSON.parse(body) as Record<string, unknown>) : {},
              )
            : bumpa(req.method ?? 'GET', url);
    }
    res.writeHead(reply[0], { 'content-type': 'application/json' }).end(JSON.stringify(reply[1]));
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return Object.assign(state, {
    url,
    env: {
      STRIPE_API_BASE_URL: `${url}/stripe`,
      PAYSTACK_API_BASE_URL: `${url}/paystack`,
      BUMPA_API_BASE_URL: `${url}/bumpa`,
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    unref: () => {
      server.unref();
      server.on('connection', (socket) => socket.unref());
    },
  });
}

let shared: Promise<FakeProviders> | null = null;

/**
 * One fake for the test apps of a jest worker that need none of their own: a connector configured
 * with any key other than those refused connects, and nothing leaves the machine.
 */
export function sharedFakeProviders(): Promise<FakeProviders> {
  shared ??= startFakeProviders().then((fake) => {
    fake.unref();
    return fake;
  });
  return shared;
}
