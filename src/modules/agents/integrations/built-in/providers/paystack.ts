import { ActionExecution } from '../../actions/action-executor';
import { fromMinorUnits, toMinorUnits } from './provider-client';
import {
  ask,
  currencyOf,
  failed,
  Provider,
  ProviderContext,
  readCheck,
  textOf,
} from './provider';

// Paystack's API (https://paystack.com/docs/api): JSON bodies, the secret key as bearer, amounts
// in the currency's subunit, every answer `{status, message, data}`.
const auth = (context: ProviderContext) => ({
  scheme: 'bearer' as const,
  secret: context.secrets.secret_key,
});

function dataOf(body: Record<string, unknown>): Record<string, unknown> | null {
  return body.status === false || !body.data || typeof body.data !== 'object'
    ? null
    : (body.data as Record<string, unknown>);
}

const unexpected = (body: Record<string, unknown>) =>
  failed(`Paystack did not do it: ${typeof body.message === 'string' ? body.message : 'no data'}`);

async function initializeTransaction(
  context: ProviderContext,
  args: Record<string, unknown>,
): Promise<ActionExecution> {
  const currency = currencyOf(context, args);
  const answer = await ask(context, 'paystack', {
    method: 'POST',
    path: '/transaction/initialize',
    auth: auth(context),
    json: {
      email: args.email,
      amount: String(toMinorUnits(args.amount as number, currency ?? 'NGN')),
      ...(currency ? { currency } : {}),
      ...(args.reference ? { reference: args.reference } : {}),
    },
  });
  if (!answer.ok) {
    return answer;
  }
  const data = dataOf(answer.body);
  if (!data) {
    return unexpected(answer.body);
  }
  return {
    ok: true,
    result: {
      url: data.authorization_url,
      reference: data.reference,
      amount: args.amount,
      currency: currency ?? 'NGN',
    },
  };
}

async function verifyTransaction(
  context: ProviderContext,
  args: Record<string, unknown>,
): Promise<ActionExecution> {
  const answer = await ask(context, 'paystack', {
    method: 'GET',
    path: `/transaction/verify/${encodeURIComponent(args.reference as string)}`,
    auth: auth(context),
  });
  if (!answer.ok) {
    return answer;
  }
  const data = dataOf(answer.body);
  if (!data) {
    return unexpected(answer.body);
  }
  const currency = textOf(data.currency, 'NGN');
  return {
    ok: true,
    result: {
      reference: data.reference,
      status: data.status,
      paid: data.status === 'success',
      amount: fromMinorUnits(data.amount, currency),
      currency,
      paid_at: data.paid_at ?? null,
      gateway_response: data.gateway_response ?? null,
    },
  };
}

async function refundTransaction(
  context: ProviderContext,
  args: Record<string, unknown>,
): Promise<ActionExecution> {
  const currency = currencyOf(context, args);
  const answer = await ask(context, 'paystack', {
    method: 'POST',
    path: '/refund',
    auth: auth(context),
    json: {
      transaction: args.reference,
      ...(args.amount !== undefined
        ? { amount: toMinorUnits(args.amount as number, currency ?? 'NGN') }
        : {}),
      ...(currency ? { currency } : {}),
      ...(args.reason ? { customer_note: args.reason, merchant_note: args.reason } : {}),
    },
  });
  if (!answer.ok) {
    return answer;
  }
  const data = dataOf(answer.body);
  if (!data) {
    return unexpected(answer.body);
  }
  const refundCurrency = textOf(data.currency, currency ?? 'NGN');
  return {
    ok: true,
    result: {
      reference: args.reference,
      status: data.status,
      amount: fromMinorUnits(data.amount, refundCurrency),
      currency: refundCurrency,
    },
  };
}

export const PAYSTACK: Provider = {
  type: 'paystack',
  secretField: 'secret_key',
  // Reading the balance needs the secret key and changes nothing.
  check: readCheck('paystack', '/balance', 'bearer'),
  actions: {
    initialize_transaction: initializeTransaction,
    verify_transaction: verifyTransaction,
    refund_transaction: refundTransaction,
  },
};
