import ipaddr from 'ipaddr.js';

/**
 * True for addresses a server-side request may reach: ordinary public unicast. Private, loopback,
 * link-local (cloud metadata lives at 169.254.169.254), carrier-grade NAT, multicast, reserved
 * and IPv6 ranges that embed or map IPv4 are all refused.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) {
    return false;
  }
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}
