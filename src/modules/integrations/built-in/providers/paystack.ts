import { ActionExecution } from '../../actions/action-executor';
import { fromMinorUnits, ProviderRequest, toMinorUnits } from './provider-client';
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

// Paystack's API (https://paystack.com/docs/api): JSON bodies, the secret key as bearer, amounts
// in the currency's subunit, every answer `{status, message, data}`.

/** A transaction reference: Paystack's letters, digits, `-`, `.` and `=`, and `_` for older ones. */
const REFERENCE = /^[A-Za-z0-9._=-]+$/;

/** The `data` of Paystack's answer, or the failure (its `message` when it says `status: false`). */
async function askData(
  context: ProviderContext,
  request: Omit<ProviderRequest, 'auth'>,
): Promise<{ ok: true; data: Record<string, unknown> } | { ok: false; error: string }> {
  const answer = await ask(context, 'paystack', {
    ...request,
    auth: { scheme: 'bearer', secret: context.secrets.secret_key },
  });
  if (!answer.ok) {
    return answer;
  }
  const body = answer.body;
  if (body.status === false || !body.data || typeof body.data !== 'object') {
    const message = typeof body.message === 'string' ? body.message : 'no data';
    return { ok: false, error: `Paystack did not do it: ${message}` };
  }
  return { ok: true, data: body.data as Record<string, unknown> };
}

async function initializeTransaction(
  context: ProviderContext,
  args: Record<string, unknown>,
): Promise<ActionExecution> {
  const currency = currencyOf(context, args);
  const answer = await askData(context, {
    method: 'POST',
    path: '/transaction/initialize',
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
  const data = answer.data;
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
  const reference = textOf(args.reference);
  const segment = REFERENCE.test(reference) ? pathSegment(reference) : null;
  if (!segment) {
    return failed(
      `${JSON.stringify(reference)} is not a Paystack reference: letters, digits, -, _, . and =, and not . or ..`,
    );
  }
  const answer = await askData(context, { method: 'GET', path: `/transaction/verify/${segment}` });
  if (!answer.ok) {
    return answer;
  }
  const data = answer.data;
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
  const answer = await askData(context, {
    method: 'POST',
    path: '/refund',
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
  const data = answer.data;
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
