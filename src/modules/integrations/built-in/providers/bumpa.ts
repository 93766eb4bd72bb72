import { ActionExecution } from '../../actions/action-executor';
import { ask, failed, Provider, ProviderContext, readCheck, textOf } from './provider';

// Bumpa's commerce API (docs.bumpa.io, published as a Postman collection): the key in X-Api-Key;
// the store's secret key reads orders, its public key the catalogue.
const ORDER_PAGES = 3;
const ORDERS_PER_PAGE = 100;

const secretAuth = (context: ProviderContext) => ({
  scheme: 'x-api-key' as const,
  secret: context.secrets.token,
});

/** The rows of a paginated answer: `{data: [...]}`, or `{orders: {data: [...]}}` for orders. */
function rowsOf(body: Record<string, unknown>, wrapper?: string): Array<Record<string, unknown>> {
  const page = (
    wrapper && body[wrapper] && typeof body[wrapper] === 'object' ? body[wrapper] : body
  ) as Record<string, unknown>;
  return Array.isArray(page.data) ? (page.data as Array<Record<string, unknown>>) : [];
}

function lastPageOf(body: Record<string, unknown>): number {
  const orders = (body.orders ?? body) as Record<string, unknown>;
  return typeof orders.last_page === 'number' ? orders.last_page : 1;
}

async function listProducts(
  context: ProviderContext,
  args: Record<string, unknown>,
): Promise<ActionExecution> {
  const publicKey = context.config.public_key;
  const query = new URLSearchParams({
    page: textOf(args.page, '1'),
    limit: textOf(args.limit, '20'),
  });
  const answer = await ask(context, 'bumpa', {
    method: 'GET',
    path: `/products?${query.toString()}`,
    auth: {
      scheme: 'x-api-key',
      secret: typeof publicKey === 'string' && publicKey ? publicKey : context.secrets.token,
    },
  });
  if (!answer.ok) {
    return answer;
  }
  return {
    ok: true,
    result: {
      products: rowsOf(answer.body).map((product) => ({
        id: product.id,
        name: product.name ?? product.title ?? null,
        price: product.price ?? product.min_selling_price ?? null,
        max_price: product.max_selling_price ?? null,
        quantity: product.quantity ?? null,
        description: product.description ?? null,
      })),
      page: args.page ?? 1,
    },
  };
}

function matches(order: Record<string, unknown>, wanted: string): boolean {
  return ['id', 'order_number', 'reference', 'code'].some(
    (field) => textOf(order[field]).replace(/^#/, '') === wanted && wanted !== '',
  );
}

/**
 * Bumpa documents listing orders, not reading one by its number: the latest
 * ORDER_PAGES × ORDERS_PER_PAGE orders are searched.
 */
async function getOrderStatus(
  context: ProviderContext,
  args: Record<string, unknown>,
): Promise<ActionExecution> {
  const wanted = String(args.order_id).trim().replace(/^#/, '');
  for (let page = 1; page <= ORDER_PAGES; page++) {
    const answer = await ask(context, 'bumpa', {
      method: 'GET',
      path: `/orders?page=${page}&limit=${ORDERS_PER_PAGE}`,
      auth: secretAuth(context),
    });
    if (!answer.ok) {
      return answer;
    }
    const order = rowsOf(answer.body, 'orders').find((row) => matches(row, wanted));
    if (order) {
      return {
        ok: true,
        result: {
          order_id: order.id,
          order_number: order.order_number ?? null,
          status: order.status ?? null,
          payment_status: order.payment_status ?? null,
          fulfillment_status: order.fulfillment_status ?? order.shipping_status ?? null,
          total: order.total ?? null,
          created_at: order.created_at ?? null,
        },
      };
    }
    if (page >= lastPageOf(answer.body)) {
      break;
    }
  }
  return failed(`Bumpa has no recent order ${wanted}`);
}

async function createOrder(): Promise<ActionExecution> {
  return failed(
    "Bumpa's public API has no call that creates an order: orders come from its own checkout. " +
      'Send the customer to the store to order, or hand over to a person',
  );
}

export const BUMPA: Provider = {
  type: 'bumpa',
  secretField: 'token',
  // One order read with the secret key: needs a working key, changes nothing.
  check: readCheck('bumpa', '/orders?limit=1', 'x-api-key'),
  actions: {
    list_products: listProducts,
    get_order_status: getOrderStatus,
    create_order: createOrder,
  },
};
