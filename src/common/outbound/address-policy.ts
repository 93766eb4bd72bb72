import ipaddr from 'ipaddr.js';

/**
 * `public`: ordinary global unicast, always callable. `private`: loopback and private networks,
 * callable only with OUTBOUND_ALLOW_PRIVATE. `forbidden`: everything else in the IANA
 * special-purpose registries (link-local and metadata endpoints above all, but also multicast,
 * documentation, benchmarking, reserved, this-network…), never callable.
 */
export type AddressClass = 'public' | 'private' | 'forbidden';

const METADATA_ADDRESSES = new Set([
  '100.100.100.200', // Alibaba Cloud, inside the shared 100.64.0.0/10
  'fd00:ec2:0:0:0:0:0:254', // AWS over IPv6, inside the unique-local fc00::/7
]);

const PRIVATE_V4 = new Set(['loopback', 'private', 'carrierGradeNat']);
const PRIVATE_V6 = new Set(['loopback', 'uniqueLocal']);

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');

/** ipaddr.js reads `::a.b.c.d` as IPv4-mapped; it is the deprecated IPv4-compatible form. */
const IPV4_COMPATIBLE_DOTTED = /^::\d{1,3}(\.\d{1,3}){3}$/;

export function classifyAddress(address: string): AddressClass {
  if (IPV4_COMPATIBLE_DOTTED.test(address) || !ipaddr.isValid(address)) {
    return 'forbidden';
  }
  const parsed = ipaddr.parse(address);
  return parsed.kind() === 'ipv4'
    ? classifyV4(parsed as ipaddr.IPv4)
    : classifyV6(parsed as ipaddr.IPv6);
}

export const isPublicAddress = (address: string): boolean => classifyAddress(address) === 'public';

/** Whether a connection to `address` may be made, private networks being allowed or not. */
export function isCallableAddress(address: string, allowPrivate: boolean): boolean {
  const verdict = classifyAddress(address);
  return verdict === 'public' || (allowPrivate && verdict === 'private');
}

function classifyV4(address: ipaddr.IPv4): AddressClass {
  if (METADATA_ADDRESSES.has(address.toString())) {
    return 'forbidden';
  }
  const range = address.range();
  return range === 'unicast' ? 'public' : PRIVATE_V4.has(range) ? 'private' : 'forbidden';
}

/**
 * Addresses that carry an IPv4 address are judged by it where the embedding still reaches it
 * (IPv4-mapped, NAT64's well-known prefix, 6to4); IPv4-compatible and Teredo are refused.
 */
function classifyV6(address: ipaddr.IPv6): AddressClass {
  if (METADATA_ADDRESSES.has(address.toNormalizedString())) {
    return 'forbidden';
  }
  if (address.isIPv4MappedAddress()) {
    return classifyV4(address.toIPv4Address());
  }
  const bytes = address.toByteArray();
  if (address.match(NAT64_WELL_KNOWN)) {
    return classifyV4(ipaddr.fromByteArray(bytes.slice(12)) as ipaddr.IPv4);
  }
  if (address.match(SIX_TO_FOUR)) {
    return classifyV4(ipaddr.fromByteArray(bytes.slice(2, 6)) as ipaddr.IPv4);
  }
  const range = address.range();
  if (PRIVATE_V6.has(range)) {
    return 'private';
  }
  if (address.match(IPV4_COMPATIBLE)) {
    return 'forbidden';
  }
  return range === 'unicast' && address.match(GLOBAL_UNICAST_V6) ? 'public' : 'forbidden';
}
