import { ActionParameters } from './actions/action-executor';

/** An action a built-in connector offers, as the catalogue lists it. */
export interface CatalogAction {
  action_name: string;
  name: string;
  description: string;
  category: string;
  require_human_approval: boolean;
  /** The JSON Schema of its arguments (catalogue actions; tools derive theirs from their settings). */
  parameters?: ActionParameters;
  /**
   * What the customer is told when it went well, or not: `{{name}}` placeholders filled from the
   * result's own keys, then the arguments (as a tool's `response_mapping` texts are).
   */
  success_message?: string;
  error_message?: string;
}

/** `action` with the texts its customer reads. */
const saying = (
  action: CatalogAction,
  success_message: string,
  error_message?: string,
): CatalogAction => ({ ...action, success_message, ...(error_message ? { error_message } : {}) });

const action = (
  action_name: string,
  name: string,
  description: string,
  category: string,
  parameters: ActionParameters,
  require_human_approval = false,
): CatalogAction => ({
  action_name,
  name,
  description,
  category,
  require_human_approval,
  parameters,
});

type Property = Record<string, unknown>;

/** An object schema of `properties`, those named in `required` required, nothing else taken. */
const params = (
  properties: Record<string, Property>,
  required: string[] = [],
): ActionParameters => ({
  type: 'object',
  properties,
  ...(required.length > 0 ? { required } : {}),
  additionalProperties: false,
});

const text = (description: string, extra: Property = {}): Property => ({
  type: 'string',
  minLength: 1,
  maxLength: 500,
  description,
  ...extra,
});
const AMOUNT_TEXT =
  'In the main unit of the currency (25.5 is 25 naira 50 kobo), not in kobo or cents';
const AMOUNT: Property = { type: 'number', exclusiveMinimum: 0, description: AMOUNT_TEXT };
const CURRENCY_ARG: Property = {
  type: 'string',
  pattern: '^[A-Za-z]{3}$',
  description: "ISO 4217 code such as NGN or USD; the connector's currency when left out",
};

export const BUMPA_ACTIONS: CatalogAction[] = [
  action(
    'list_products',
    'List products',
    'Look up products and their prices in the store',
    'commerce',
    params({
      page: { type: 'integer', minimum: 1, description: 'Page of the catalogue, from 1' },
      limit: { type: 'integer', minimum: 1, maximum: 50, description: 'Products per page' },
    }),
  ),
  saying(
    action(
      'get_order_status',
      'Get order status',
      'Tell a customer where their order is',
      'commerce',
      params({ order_id: text('The order number the customer has, or its id') }, ['order_id']),
    ),
    'Your order is {{status}}.',
    'Sorry, I could not find order {{order_id}} just now.',
  ),
  saying(
    action(
      'create_order',
      'Create order',
      'Place an order for a customer',
      'commerce',
      params(
        {
          product_id: text('The id of the product, from list_products'),
          quantity: { type: 'integer', minimum: 1 },
          customer_name: text("The customer's full name"),
          customer_email: text("The customer's email address"),
          customer_phone: text("The customer's phone number"),
        },
        ['product_id', 'quantity', 'customer_name'],
      ),
      true,
    ),
    'Your order has been placed.',
    'Sorry, I could not place your order just now.',
  ),
];

export const GOOGLE_CALENDAR_ACTIONS: CatalogAction[] = [
  action(
    'check_availability',
    'Check availability',
    'Find free slots in the calendar',
    'scheduling',
    params(
      {
        date: text('The day, as YYYY-MM-DD', { pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
        duration_minutes: { type: 'integer', minimum: 5, maximum: 480 },
      },
      ['date'],
    ),
  ),
  action(
    'book_appointment',
    'Book appointment',
    'Book a slot for a customer',
    'scheduling',
    params(
      {
        start: text('When it starts, as an ISO 8601 date and time'),
        duration_minutes: { type: 'integer', minimum: 5, maximum: 480 },
        name: text("The customer's name"),
        email: text("The customer's email address"),
      },
      ['start', 'name'],
    ),
  ),
  action(
    'cancel_appointment',
    'Cancel appointment',
    'Cancel a booked slot',
    'scheduling',
    params({ appointment_id: text('The id book_appointment gave') }, ['appointment_id']),
    true,
  ),
];

export const GOOGLE_SHEETS_ACTIONS: CatalogAction[] = [
  action(
    'append_row',
    'Append row',
    'Record details, such as a lead, as a new row',
    'data',
    params({ values: { type: 'object', description: 'Column name → value' } }, ['values']),
  ),
  action(
    'lookup_row',
    'Look up row',
    'Find a row matching a value',
    'data',
    params({ column: text('The column to search'), value: text('The value to find') }, [
      'column',
      'value',
    ]),
  ),
];

export const PAYSTACK_ACTIONS: CatalogAction[] = [
  saying(
    action(
      'initialize_transaction',
      'Create payment link',
      'Start a payment and send its link',
      'payments',
      params(
        {
          email: text("The customer's email address (Paystack sends the receipt there)"),
          amount: AMOUNT,
          currency: CURRENCY_ARG,
          reference: text('A unique reference for the payment; Paystack makes one when left out'),
        },
        ['email', 'amount'],
      ),
    ),
    'Here is your payment link: {{url}}',
    'Sorry, I could not create a payment link just now.',
  ),
  saying(
    action(
      'verify_transaction',
      'Verify payment',
      'Check whether a payment went through',
      'payments',
      params({ reference: text('The reference of the payment') }, ['reference']),
    ),
    'The status of payment {{reference}} is {{status}}.',
    'Sorry, I could not check payment {{reference}} just now.',
  ),
  saying(
    action(
      'refund_transaction',
      'Refund payment',
      'Refund a payment',
      'payments',
      params(
        {
          reference: text('The reference (or id) of the payment to refund'),
          amount: { ...AMOUNT, description: `${AMOUNT_TEXT}; all of it when left out` },
          currency: CURRENCY_ARG,
          reason: text('Why it is refunded, for the customer'),
        },
        ['reference'],
      ),
      true,
    ),
    'Your refund of {{amount}} {{currency}} has been started.',
    'Sorry, I could not refund payment {{reference}} just now.',
  ),
];

export const STRIPE_ACTIONS: CatalogAction[] = [
  saying(
    action(
      'create_payment_link',
      'Create payment link',
      'Create a Stripe payment link for an amount',
      'payments',
      params(
        {
          amount: AMOUNT,
          currency: CURRENCY_ARG,
          description: text('What is paid for, shown on the payment page'),
          quantity: { type: 'integer', minimum: 1, description: 'How many (1 when left out)' },
        },
        ['amount', 'description'],
      ),
    ),
    'Here is your payment link: {{url}}',
    'Sorry, I could not create a payment link just now.',
  ),
  action(
    'get_payment_status',
    'Get payment status',
    'Check the status of a payment',
    'payments',
    params(
      {
        payment_id: text('A payment (pi_…), checkout (cs_…) or payment link (plink_…) id'),
      },
      ['payment_id'],
    ),
  ),
  saying(
    action(
      'refund_payment',
      'Refund payment',
      'Refund a payment',
      'payments',
      params(
        {
          payment_id: text('The payment to refund: its pi_… (or ch_…) id'),
          amount: { ...AMOUNT, description: `${AMOUNT_TEXT}; all of it when left out` },
          currency: CURRENCY_ARG,
          reason: { type: 'string', enum: ['duplicate', 'fraudulent', 'requested_by_customer'] },
        },
        ['payment_id'],
      ),
      true,
    ),
    'Your refund of {{amount}} {{currency}} has been started.',
    'Sorry, I could not refund that payment just now.',
  ),
];
