import {
  BUMPA_ACTIONS,
  CatalogAction,
  GOOGLE_CALENDAR_ACTIONS,
  GOOGLE_SHEETS_ACTIONS,
  PAYSTACK_ACTIONS,
  STRIPE_ACTIONS,
} from './connector-actions';

export interface ConfigField {
  key: string;
  label: string;
  type: 'text' | 'password' | 'url' | 'select' | 'json';
  required: boolean;
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

const CURRENCY: ConfigField = { key: 'currency', label: 'Currency', type: 'text', required: false };

export const CONNECTORS: Record<BuiltInConnectorType, Connector> = {
  bumpa: {
    type: 'bumpa',
    name: 'Bumpa',
    auth: 'credentials',
    secretFields: ['token'],
    configFields: [
      { key: 'token', label: 'API secret key', type: 'password', required: true },
      {
        key: 'public_key',
        label: 'API public key (product lookups)',
        type: 'text',
        required: false,
      },
    ],
    actions: BUMPA_ACTIONS,
  },
  google_calendar: {
    type: 'google_calendar',
    name: 'Google Calendar',
    auth: 'oauth',
    secretFields: [],
    configFields: [],
    actions: GOOGLE_CALENDAR_ACTIONS,
  },
  google_sheets: {
    type: 'google_sheets',
    name: 'Google Sheets',
    auth: 'oauth',
    secretFields: [],
    configFields: [],
    actions: GOOGLE_SHEETS_ACTIONS,
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
    actions: PAYSTACK_ACTIONS,
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
    actions: STRIPE_ACTIONS,
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
