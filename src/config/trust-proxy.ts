import { ValidateBy } from 'class-validator';
import ipaddr from 'ipaddr.js';

/** What Express's `trust proxy` setting is given: nothing, a hop count, or the proxies' addresses. */
export type TrustProxy = false | number | string[];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

const isAddress = (value: string) =>
  ipaddr.IPv4.isValidFourPartDecimal(value) || ipaddr.IPv6.isValid(value);

const isAddressOrRange = (entry: string) =>
  NAMED_RANGES.has(entry) ||
  isAddress(entry) ||
  (isAddress(entry.split('/')[0]) && ipaddr.isValidCIDR(entry));

/**
 * `TRUST_PROXY`: `false`, the number of proxies in front of the service, or a comma-separated
 * list of their addresses, CIDR ranges or `loopback`/`linklocal`/`uniquelocal`. `true` is
 * refused: it would take the leftmost X-Forwarded-For entry, which any client can forge.
 */
export function parseTrustProxy(value: string): TrustProxy | undefined {
  const trimmed = value.trim();
  if (trimmed === 'false') {
    return false;
  }
  if (/^\d{1,3}$/.test(trimmed)) {
    return Number(trimmed);
  }
  const entries = trimmed.split(',').map((entry) => entry.trim());
  return entries.every(isAddressOrRange) ? entries : undefined;
}

function trustProxyProblem(value: unknown): string {
  return String(value).trim() === 'true'
    ? 'true would trust any X-Forwarded-For a client forges; set the number of proxies in front ' +
        'of the service (e.g. 1 behind one load balancer) or their addresses'
    : 'must be false, a number of proxies (e.g. 1), or a comma-separated list of addresses, ' +
        'CIDR ranges, loopback, linklocal or uniquelocal';
}

export const IsTrustProxy = () =>
  ValidateBy({
    name: 'isTrustProxy',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && parseTrustProxy(value) !== undefined,
      defaultMessage: (args) => trustProxyProblem(args?.value),
    },
  });
