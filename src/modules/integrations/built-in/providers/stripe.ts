import { ActionExecution } from '../../actions/action-executor';
import { formEncode, fromMinorUnits, toMinorUnits } from './provider-client';
import {
  ask,
  currencyOf,
  failed,
  pathSegment,
  Provider,
  ProviderContext,
  readCheck,
  textOf,
} from './provider';

// Stripe's REST API (https://docs.stripe.com/api): form-encoded bodies, the secret key as bearer.
const auth = (context: ProviderContext) => ({
  scheme: 'bearer' as const,
  secret: context.secrets.secret_key,
});

const NO_CURRENCY =
  'Stripe needs a currency: give one, or set the currency of the Stripe connector';

/** A price for the amount (with its product made inline), then a payment link selling it. */
async function createPaymentLink(
  context: ProviderContext,
  args: Record<string, unknown>,
): Promise<ActionExecution> {
  const currency = currencyOf(context, args);
  if (!currency) {
    return failed(NO_CURRENCY);
  }
  const quantity = (args.quantity as number | undefined) ?? 1;
  const price = await ask(context, 'stripe', {
    method: 'POST',
    path: '/v1/prices',
    auth: auth(context),
    form: formEncode({
      currency: currency.toLowerCase(),
      unit_amount: toMinorUnits(args.amount as number, currency),
      product_data: { name: args.description },
    }),
  });
  if (!price.ok) {
    return price;
  }
  const link = await ask(context, 'stripe', {
    method: 'POST',
    path: '/v1/payment_links',
    auth: auth(context),
    form: formEncode({ line_items: [{ price: price.body.id, quantity }] }),
  });
  if (!link.ok) {
    return link;
  }
  return {
    ok: true,
    result: {
      url: link.body.url,
      payment_link_id: link.body.id,
      amount: args.amount,
      quantity,
      currency,
      description: args.description,
    },
  };
}

function paymentIntentStatus(body: Record<string, unknown>) {
  const currency = textOf(body.currency);
  return {
    payment_id: body.id,
    status: body.status,
    paid: body.status === 'succeeded',
    amount: fromMinorUnits(body.amount, currency),
    amount_received: fromMinorUnits(body.amount_received, currency),
    currency: currency.toUpperCase(),
  };
}

function sessionStatus(body: Record<string, unknown>) {
  const currency = textOf(body.currency);
  return {
    session_id: body.id,
    status: body.status,
    payment_status: body.payment_status,
    paid: body.payment_status === 'paid',
    amount: fromMinorUnits(body.amount_total, currency),
    currency: currency.toUpperCase(),
  };
}

/** By the id's prefix: a PaymentIntent, a Checkout Session, or the sessions of a payment link. */
async function getPaymentStatus(
  context: ProviderContext,
  args: Record<string, unknown>,
): Promise<ActionExecution> {
  const id = args.payment_id as string;
  // Each kind of id starts with its prefix, so it is never a dot segment; encoded all the same.
  const path = pathSegment(id) ?? '';
  if (id.startsWith('pi_')) {
    const intent = await ask(context, 'stripe', {
      method: 'GET',
      path: `/v1/payment_intents/${path}`,
      auth: auth(context),
    });
    return intent.ok ? { ok: true, result: paymentIntentStatus(intent.body) } : intent;
  }
  if (id.startsWith('cs_')) {
    const session = await ask(context, 'stripe', {
      method: 'GET',
      path: `/v1/checkout/sessions/${path}`,
      auth: auth(context),
    });
    return session.ok ? { ok: true, result: sessionStatus(session.body) } : session;
  }
  if (id.startsWith('plink_')) {
    const sessions = await ask(context, 'stripe', {
      method: 'GET',
      path: `/v1/checkout/sessions?payment_link=${path}&limit=10`,
      auth: auth(context),
    });
    if (!sessions.ok) {
      return sessions;
    }
    const list = Array.isArray(sessions.body.data)
      ? (sessions.body.data as Array<Record<string, unknown>>).map(sessionStatus)
      : [];
    return {
      ok: true,
      result: {
        payment_link_id: id,
        paid: list.some((session) => session.paid),
        checkouts: list,
      },
    };
  }
  return failed(
    'Stripe payment ids start with pi_ (a payment), cs_ (a checkout) or plink_ (a payment link)',
  );
}

async function refundPayment(
  context: ProviderContext,
  args: Record<string, unknown>,
): Promise<ActionExecution> {
  const id = args.payment_id as string;
  if (!id.startsWith('pi_') && !id.startsWith('ch_')) {
    return failed('Stripe refunds a payment by its id, starting with pi_ (or ch_ for a charge)');
  }
  let amount: number | undefined;
  if (args.amount !== undefined) {
    const currency = currencyOf(context, args);
    if (!currency) {
      return failed(NO_CURRENCY);
    }
    amount = toMinorUnits(args.amount as number, currency);
  }
  const refund = await ask(context, 'stripe', {
    method: 'POST',
    path: '/v1/refunds',
    auth: auth(context),
    form: formEncode({
      [id.startsWith('pi_') ? 'payment_intent' : 'charge']: id,
      amount,
      reason: args.reason,
    }),
  });
  if (!refund.ok) {
    return refund;
  }
  const currency = textOf(refund.body.currency);
  return {
    ok: true,
    result: {
      refund_id: refund.body.id,
      status: refund.body.status,
      amount: fromMinorUnits(refund.body.amount, currency),
      currency: currency.toUpperCase(),
    },
  };
}

export const STRIPE: Provider = {
  type: 'stripe',
  secretField: 'secret_key',
  // The balance is readable by any working secret key, and reading it changes nothing.
  check: readCheck('stripe', '/v1/balance', 'bearer'),
  actions: {
    create_payment_link: createPaymentLink,
    get_payment_status: getPaymentStatus,
    refund_payment: refundPayment,
  },
};
