export interface ConfigField {
  key: string;
  label: string;
  type: 'text' | 'password' | 'url' | 'select' | 'json';
  required: boolean;
}

export interface CatalogAction {
  action_name: string;
  name: string;
  description: string;
  category: string;
  require_human_approval: boolean;
}

export interface Connector {
  type: BuiltInConnectorType;
  name: string;
  /** `credentials`: connected as soon as its secret arrives; `oauth`: finished in the dashboard. */
  auth: 'credentials' | 'oauth';
  /** The configure-body fields that hold the connector's secret. */
  secretFields: Array<'token' | 'secret_key'>;
  configFields: ConfigField[];
  actions: CatalogAction[];
}

export const BUILT_IN_CONNECTOR_TYPES = [
  'bumpa',
  'google_calendar',
  'google_sheets',
  'paystack',
  'stripe',
] as const;
export type BuiltInConnectorType = (typeof BUILT_IN_CONNECTOR_TYPES)[number];

const action = (
  action_name: string,
  name: string,
  description: string,
  category: string,
  require_human_approval = false,
): CatalogAction => ({ action_name, name, description, category, require_human_approval });

const CURRENCY: ConfigField = { key: 'currency', label: 'Currency', type: 'text', required: false };

export const CONNECTORS: Record<BuiltInConnectorType, Connector> = {
  bumpa: {
    type: 'bumpa',
    name: 'Bumpa',
    auth: 'credentials',
    secretFields: ['token'],
    configFields: [{ key: 'token', label: 'API token', type: 'password', required: true }],
    actions: [
      action(
        'list_products',
        'List products',
        'Look up products and their prices in the store',
        'commerce',
      ),
      action(
        'get_order_status',
        'Get order status',
        'Tell a customer where their order is',
        'commerce',
      ),
      action('create_order', 'Create order', 'Place an order for a customer', 'commerce', true),
    ],
  },
  google_calendar: {
    type: 'google_calendar',
    name: 'Google Calendar',
    auth: 'oauth',
    secretFields: [],
    configFields: [],
    actions: [
      action(
        'check_availability',
        'Check availability',
        'Find free slots in the calendar',
        'scheduling',
      ),
      action('book_appointment', 'Book appointment', 'Book a slot for a customer', 'scheduling'),
      action(
        'cancel_appointment',
        'Cancel appointment',
        'Cancel a booked slot',
        'scheduling',
        true,
      ),
    ],
  },
  google_sheets: {
    type: 'google_sheets',
    name: 'Google Sheets',
    auth: 'oauth',
    secretFields: [],
    configFields: [],
    actions: [
      action('append_row', 'Append row', 'Record details, such as a lead, as a new row', 'data'),
      action('lookup_row', 'Look up row', 'Find a row matching a value', 'data'),
    ],
  },
  paystack: {
    type: 'paystack',
    name: 'Paystack',
    auth: 'credentials',
    secretFields: ['secret_key'],
    configFields: [
      { key: 'public_key', label: 'Public key', type: 'text', required: false },
      { key: 'secret_key', label: 'Secret key', type: 'password', required: true },
      CURRENCY,
    ],
    actions: [
      action(
        'initialize_transaction',
        'Create payment link',
        'Start a payment and send its link',
        'payments',
      ),
      action(
        'verify_transaction',
        'Verify payment',
        'Check whether a payment went through',
        'payments',
      ),
      action('refund_transaction', 'Refund payment', 'Refund a payment', 'payments', true),
    ],
  },
  stripe: {
    type: 'stripe',
    name: 'Stripe',
    auth: 'credentials',
    secretFields: ['secret_key'],
    configFields: [
      { key: 'public_key', label: 'Publishable key', type: 'text', required: false },
      { key: 'secret_key', label: 'Secret key', type: 'password', required: true },
      CURRENCY,
    ],
    actions: [
      action(
        'create_payment_link',
        'Create payment link',
        'Create a Stripe payment link for an amount',
        'payments',
      ),
      action(
        'get_payment_status',
        'Get payment status',
        'Check the status of a payment',
        'payments',
      ),
      action('refund_payment', 'Refund payment', 'Refund a payment', 'payments', true),
    ],
  },
};

export const CUSTOM_API_CONFIG_FIELDS: ConfigField[] = [
  { key: 'name', label: 'Name', type: 'text', required: true },
  { key: 'description', label: 'Description', type: 'text', required: false },
  { key: 'base_url', label: 'Base URL', type: 'url', required: false },
  { key: 'auth_type', label: 'Authentication', type: 'select', required: false },
  { key: 'auth_config', label: 'Authentication settings', type: 'json', required: false },
  { key: 'test_endpoint', label: 'Test endpoint', type: 'url', required: false },
];

export const MCP_SERVER_CONFIG_FIELDS: ConfigField[] = [
  { key: 'name', label: 'Name', type: 'text', required: true },
  { key: 'server_url', label: 'Server URL', type: 'url', required: true },
  { key: 'transport', label: 'Transport', type: 'select', required: false },
  { key: 'auth_type', label: 'Authentication', type: 'select', required: false },
  { key: 'auth_config', label: 'Authentication settings', type: 'json', required: false },
];

export const PIPEDREAM_CONFIG_FIELDS: ConfigField[] = [
  { key: 'app_slug', label: 'App', type: 'text', required: true },
  { key: 'app_name', label: 'App name', type: 'text', required: false },
  { key: 'app_icon', label: 'App icon URL', type: 'url', required: false },
];
