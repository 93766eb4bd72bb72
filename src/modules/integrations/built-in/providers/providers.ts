import { BUMPA } from './bumpa';
import { PAYSTACK } from './paystack';
import { Provider } from './provider';
import { STRIPE } from './stripe';

/** The connectors whose actions run against a provider's API, by connector type. */
export const PROVIDERS: Record<string, Provider | undefined> = {
  stripe: STRIPE,
  paystack: PAYSTACK,
  bumpa: BUMPA,
};
